package synth

import (
	"hash/fnv"
	"math"
	"testing"
)

// playGame runs a short game and returns a hash of its frames and, for
// each frame, a copy of the truth's disk centres by id.
func playGame(t *testing.T, seed uint64) (uint64, []Frame, []map[string][3]float64) {
	t.Helper()
	g, err := NewGame(seed, GameOptions{Width: 320, Height: 180, Minutes: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var frames []Frame
	var centres []map[string][3]float64
	for {
		f, ok := g.Next()
		if !ok {
			break
		}
		h.Write(f.Image.Pix)
		c := map[string][3]float64{}
		for _, d := range f.Truth.Disks {
			c[d.ID] = [3]float64{float64(d.X), float64(d.Y), float64(d.R)}
		}
		f.Image = nil
		frames = append(frames, f)
		centres = append(centres, c)
	}
	if len(frames) != g.Len() {
		t.Fatalf("got %d frames, want %d", len(frames), g.Len())
	}
	return h.Sum64(), frames, centres
}

func TestGamesAreDeterministic(t *testing.T) {
	a, _, _ := playGame(t, 7)
	b, _, _ := playGame(t, 7)
	c, _, _ := playGame(t, 8)
	if a != b {
		t.Errorf("two plays of seed 7 differ")
	}
	if a == c {
		t.Errorf("seeds 7 and 8 gave the same frames")
	}
}

func TestDisksMoveByWholeFlips(t *testing.T) {
	// Diskwars rulebook, "Action : se déplacer": a disk moves by being
	// flipped over, one diameter each time, as often as its movement.
	_, frames, centres := playGame(t, 9)
	moves := 0
	for i := 1; i < len(frames); i++ {
		for id, now := range centres[i] {
			was, ok := centres[i-1][id]
			if !ok {
				continue
			}
			d := math.Hypot(now[0]-was[0], now[1]-was[1])
			if d < 1e-9 {
				continue
			}
			moves++
			if math.Abs(d-2*now[2]) > 1e-6 {
				t.Errorf("frame %d: %s moved %.3f cm in one step, want one diameter %.3f", i, id, d, 2*now[2])
			}
			if !frames[i].Moving || frames[i].Action != "move" {
				t.Errorf("frame %d: %s moved in a frame marked moving %v, action %q", i, id, frames[i].Moving, frames[i].Action)
			}
		}
	}
	if moves == 0 {
		t.Errorf("no disk moved in %d frames", len(frames))
	}
}

func TestAHandIsAlwaysAMovingFrame(t *testing.T) {
	_, frames, _ := playGame(t, 10)
	hands := 0
	for _, f := range frames {
		if f.Hand {
			hands++
			if !f.Moving || f.HandBox.Empty() {
				t.Errorf("frame %d: a hand in a frame marked moving %v, box %v", f.Index, f.Moving, f.HandBox)
			}
		}
	}
	if hands == 0 {
		t.Errorf("no hand in %d frames", len(frames))
	}
}
