package vision

import (
	"math/rand/v2"
	"testing"
)

// line gives bilinear's colours, sample for sample, along segments inside
// the image, touching its last row and column, and leaving it.
func TestLineIsBilinear(t *testing.T) {
	const w, h = 13, 9
	img := bgrImage{pix: make([]uint8, 3*w*h), w: w, h: h}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img.pix {
		img.pix[i] = uint8(rng.IntN(256))
	}
	cases := []struct {
		name           string
		u0, v0, du, dv float64
		n              int
		inside         bool
	}{
		{"across the middle", 1.3, 2.7, 0.5, 0.25, 15, true},
		{"to the last column", 2, 4.5, 0.5, 0, 21, true},
		{"down the last column", w - 1, 0, 0, 0.5, 17, true},
		{"to the bottom right corner", 0, 0, 0.75, 0.5, 17, true},
		{"backwards", 11.9, 7.9, -0.5, -0.3, 20, true},
		{"out on the right", 3, 3, 0.5, 0, 30, false},
		{"from outside", -0.5, 3, 0.5, 0, 10, false},
	}
	for _, tc := range cases {
		out := make([][3]float64, tc.n)
		if got := img.line(tc.u0, tc.v0, tc.du, tc.dv, out); got != tc.inside {
			t.Errorf("%s: inside %v, want %v", tc.name, got, tc.inside)
			continue
		}
		if !tc.inside {
			continue
		}
		for i := range out {
			want, ok := img.bilinear(tc.u0+tc.du*float64(i), tc.v0+tc.dv*float64(i))
			if !ok || out[i] != want {
				t.Errorf("%s: sample %d %v, bilinear %v (%v)", tc.name, i, out[i], want, ok)
			}
		}
	}
}
