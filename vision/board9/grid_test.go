package board9

import (
	"fmt"
	"math"
	"testing"

	"tableref/vision/synth"
)

// testCells is a setup-like board: rows 1-3 for the first player, 7-9 for
// the second, with gaps.
func testCells() synth.Board9Cells {
	var c synth.Board9Cells
	for sq := 0; sq < 27; sq++ {
		if sq%3 != 1 {
			c[sq] = 1
		}
	}
	for sq := 54; sq < 81; sq++ {
		if sq%4 != 1 {
			c[sq] = 2
		}
	}
	return c
}

// gridError is the largest distance (pixels) between the grid found and
// the true intersections, turned by the scene's camera side.
func gridError(s *synth.Board9Scene, g *Grid, turn int) float64 {
	worst := 0.0
	for j := range Lines {
		for i := range Lines {
			ti, tj := turnCorner(i, j, turn)
			want, _ := s.GridPixel(float64(ti), float64(tj))
			u, v := g.Corner(i, j)
			worst = math.Max(worst, math.Hypot(u-want.U, v-want.V))
		}
	}
	return worst
}

func TestFindGridOnRenderedBoards(t *testing.T) {
	for _, tier := range synth.Tiers {
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("%s-%d", tier, seed), func(t *testing.T) {
				s, err := synth.NewBoard9(seed, tier, synth.Board9Options{Width: 640, Height: 480})
				if err != nil {
					t.Fatal(err)
				}
				img, err := s.Render(testCells(), 0)
				if err != nil {
					t.Fatal(err)
				}
				f, err := newFrame(img, nil)
				if err != nil {
					t.Fatal(err)
				}
				g, err := findGrid(f, DefaultGeometry)
				if err != nil {
					t.Fatal(err)
				}
				e := gridError(s, g, 0)
				t.Logf("found %d, worst %.2f px", g.found, e)
				if e > 3 {
					t.Errorf("grid off by %.2f px, want at most 3", e)
				}
			})
		}
	}
}
