package synth

import (
	"image"
	"math"
	"slices"
	"testing"
)

var board9Small = Board9Options{Width: 640, Height: 480}

func board9Setup() Board9Cells {
	var c Board9Cells
	for sq := range 27 {
		c[sq] = 1
		c[80-sq] = 2
	}
	return c
}

func TestBoard9SameSeedSameFrames(t *testing.T) {
	a, err := NewBoard9(7, Hard, board9Small)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewBoard9(7, Hard, board9Small)
	ia, err := a.Render(board9Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ib, _ := b.Render(board9Setup(), 0)
	if !slices.Equal(pixels(ia), pixels(ib)) {
		t.Errorf("two renders of seed 7 differ")
	}
	ic, _ := a.Render(board9Setup(), 1)
	if slices.Equal(pixels(ia), pixels(ic)) {
		t.Errorf("frames 0 and 1 have the same sensor noise")
	}
}

func pixels(img image.Image) []uint8 {
	b := img.Bounds()
	out := make([]uint8, 0, 3*b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			out = append(out, uint8(r>>8), uint8(g>>8), uint8(bl>>8))
		}
	}
	return out
}

// Every scene keeps its tier's tilt and shows the whole board, row 1
// nearest the bottom of the frame when the camera stands behind the first
// player (Turn 0) and nearest the top from the other side (Turn 2).
func TestBoard9ScenesShowTheWholeBoard(t *testing.T) {
	for _, tier := range Tiers {
		for seed := range uint64(10) {
			for _, turn := range []int{0, 2} {
				s, err := NewBoard9(seed, tier, Board9Options{Width: 640, Height: 480, Turn: turn})
				if err != nil {
					t.Fatal(err)
				}
				if s.Tilt > tierSpecs[tier].tilt {
					t.Errorf("%s seed %d: tilt %.1f, tier allows %.1f", tier, seed, s.Tilt, tierSpecs[tier].tilt)
				}
				for _, c := range [][2]float64{{0, 0}, {9, 0}, {9, 9}, {0, 9}} {
					p, ok := s.GridPixel(c[0], c[1])
					if !ok || p.U < 0 || p.V < 0 || p.U >= 640 || p.V >= 480 {
						t.Errorf("%s seed %d: grid corner %v out of view at %v", tier, seed, c, p)
					}
				}
				row1, _ := s.GridPixel(4.5, 0)
				row9, _ := s.GridPixel(4.5, 9)
				if (turn == 0) != (row1.V > row9.V) {
					t.Errorf("%s seed %d turn %d: row 1 at v=%.0f, row 9 at v=%.0f", tier, seed, turn, row1.V, row9.V)
				}
			}
		}
	}
}

// A piece stands where the cells say: the middle of an occupied square
// has its army's colour, an empty one the board's.
func TestBoard9PiecesStandWhereTheTruthSays(t *testing.T) {
	s, err := NewBoard9(4, Easy, board9Small)
	if err != nil {
		t.Fatal(err)
	}
	cells := board9Setup()
	img, err := s.Render(cells, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := [3][3]uint8{s.Board, s.First, s.Second}
	near := func(sq int) int {
		f, r := float64(sq%Board9Size)+0.5, float64(sq/Board9Size)+0.5
		p, _ := s.GridPixel(f, r)
		cr, cg, cb, _ := img.At(int(math.Round(p.U)), int(math.Round(p.V))).RGBA()
		best, bd := -1, math.Inf(1)
		for k, w := range want {
			d := math.Abs(float64(cr>>8)-float64(w[0])) + math.Abs(float64(cg>>8)-float64(w[1])) + math.Abs(float64(cb>>8)-float64(w[2]))
			if d < bd {
				best, bd = k, d
			}
		}
		return best
	}
	for sq, c := range cells {
		if got := near(sq); got != int(c) {
			t.Errorf("square %d: the colour at its middle is nearest class %d, want %d", sq, got, c)
		}
	}
	if _, err := s.Render(Board9Cells{3}, 0); err == nil {
		t.Errorf("a cell holding 3 was rendered, want an error")
	}
	if _, err := NewBoard9(1, "brutal", board9Small); err == nil {
		t.Errorf("an unknown tier gave a scene")
	}
}
