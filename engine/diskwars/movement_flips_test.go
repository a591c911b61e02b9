package diskwars

import (
	"math"
	"strings"
	"testing"

	"tableref/models"
)

// gapLayout: a mover (r 2.5, one flip 5 cm, movement 3) at the origin,
// hemmed in by five small friends (r 1.5) whose centres lie 5 cm from its
// own. A landing after one flip overlaps a friend whose direction is less
// than 47.16° from the flip's, so the only free first flips are those
// between 1° and 4°: none of the 72 directions every 5° is free.
func gapLayout() models.Layout {
	mover := fighter("mover", "elves", 0, 0, 2.5, 0, 1, 1, 2)
	disks := []models.Disk{mover}
	for k, deg := range []float64{-46.16, 51.16, 140, 210, 260} {
		a := deg * math.Pi / 180
		disks = append(disks, fighter("small"+string(rune('a'+k)), "elves", 5*math.Cos(a), 5*math.Sin(a), 1.5, 0, 1, 1, 1))
	}
	return layoutOf(disks...)
}

// TestFlipThroughANarrowGap: "Action : se déplacer": "le joueur qui le
// contrôle peut retourner le Disk dans n'importe quelle direction et ce
// autant de fois que son mouvement l'y autorise". A first flip through a
// gap narrower than 5° between two disks is a legal flip, and the moves
// it opens are legal.
func TestFlipThroughANarrowGap(t *testing.T) {
	polar := func(r, deg float64) (float64, float64) {
		return r * math.Cos(deg*math.Pi/180), r * math.Sin(deg*math.Pi/180)
	}
	bentX, bentY := polar(5, 2.5)
	dx, dy := polar(10, 60)
	for _, tc := range []struct {
		name    string
		x, y    float64
		legal   bool
		flips   int
		problem string
	}{
		{name: "three flips straight through the gap", x: 15 * math.Cos(2.5*math.Pi/180), y: 15 * math.Sin(2.5*math.Pi/180), legal: true, flips: 3},
		{name: "one flip through the gap, then two turning left", x: bentX + dx, y: bentY + dy, legal: true, flips: 3},
		{name: "no gap leads back behind the ring in three flips", x: -15, y: 0, flips: -1, problem: "no path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := gapLayout()
			m, err := CheckMove(before, moved(before, "mover", tc.x, tc.y), MoveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Legal != tc.legal || m.MinFlips != tc.flips {
				t.Errorf("got legal %v flips %d (%v), want legal %v flips %d", m.Legal, m.MinFlips, m.Problems, tc.legal, tc.flips)
			}
			if tc.problem != "" && !strings.Contains(strings.Join(m.Problems, "; "), tc.problem) {
				t.Errorf("problems: got %v, want one with %q", m.Problems, tc.problem)
			}
		})
	}
}

func BenchmarkCheckMoveThroughANarrowGap(b *testing.B) {
	before := gapLayout()
	before.Disks[0].Stats["movement"] = 6
	after := moved(before, "mover", 30*math.Cos(2.5*math.Pi/180), 30*math.Sin(2.5*math.Pi/180))
	for b.Loop() {
		m, err := CheckMove(before, after, MoveOptions{})
		if err != nil || !m.Legal {
			b.Fatal(m.Problems, err)
		}
	}
}
