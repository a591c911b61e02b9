package track

import (
	"fmt"
	"image"
	"math/rand/v2"
	"testing"

	"tableref/models"
	"tableref/vision/synth"
)

// truthDetector reports the ground truth of the frame being shown, in a
// shuffled order under ids of its own, as a perfect detector would.
type truthDetector struct {
	truth models.Layout
	rng   *rand.Rand
	reads int
}

func (d *truthDetector) Detect(image.Image) (models.Layout, error) {
	d.reads++
	l := d.truth.Clone()
	d.rng.Shuffle(len(l.Disks), func(i, j int) { l.Disks[i], l.Disks[j] = l.Disks[j], l.Disks[i] })
	rename := map[string]string{}
	for i := range l.Disks {
		rename[l.Disks[i].ID] = fmt.Sprintf("x%d", i)
		l.Disks[i].ID = rename[l.Disks[i].ID]
		l.Disks[i].Stats = nil
	}
	for k := range l.Tokens {
		for j, id := range l.Tokens[k].Touches {
			l.Tokens[k].Touches[j] = rename[id]
		}
	}
	return l, nil
}

func TestARenderedGameIsRuledOnlyAtRestWithStableIdentities(t *testing.T) {
	game, err := synth.NewGame(3, synth.GameOptions{Width: 480, Height: 270, Minutes: 0.4, Bumps: -1})
	if err != nil {
		t.Fatal(err)
	}
	det := &truthDetector{rng: rand.New(rand.NewPCG(1, 1))}
	p := NewPipeline(det, PipelineOptions{})
	rulings, adopted := 0, false
	for {
		f, ok := game.Next()
		if !ok {
			break
		}
		det.truth = f.Truth
		st, err := p.Step(f.Index, f.Image)
		if err != nil {
			t.Fatal(err)
		}
		if st.Ruling == nil {
			continue
		}
		rulings++
		if f.Moving {
			t.Fatalf("frame %d (%s): a ruling while the table moves", f.Index, f.Action)
		}
		if !adopted {
			if _, err := p.Tracker().Adopt(f.Truth); err != nil {
				t.Fatal(err)
			}
			adopted = true
			continue
		}
		for _, d := range f.Truth.Disks {
			got, ok := st.Ruling.Layout.Disk(d.ID)
			if ok && (got.X-d.X)*(got.X-d.X)+(got.Y-d.Y)*(got.Y-d.Y) < 0.01 {
				continue
			}
			if _, known := game.Scene.Truth.Disk(d.ID); known {
				t.Errorf("frame %d: disk %s at (%.1f, %.1f) not found under its id", f.Index, d.ID, d.X, d.Y)
			}
		}
	}
	if rulings < 3 {
		t.Errorf("got %d rulings in %d frames, want several", rulings, game.Len())
	}
	if det.reads > game.Len()/10 {
		t.Errorf("the detector ran on %d of %d frames, want it to run only when the table is still", det.reads, game.Len())
	}
}
