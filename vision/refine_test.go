package vision

import (
	"math"
	"testing"
)

// stepImage returns a w x h frame dark left of column edge and light
// right of it, the step a two-pixel ramp centred on edge.
func stepImage(w, h int, edge float64) bgrImage {
	img := bgrImage{pix: make([]uint8, 3*w*h), w: w, h: h}
	for y := range h {
		for x := range w {
			v := 60 + 120*math.Min(math.Max((float64(x)-edge+1)/2, 0), 1)
			for k := range 3 {
				img.pix[3*(y*w+x)+k] = uint8(math.Round(v))
			}
		}
	}
	return img
}

// strongestPeak returns the strongest of peaks, and false if none.
func strongestPeak(peaks []peak) (peak, bool) {
	best, ok := peak{}, false
	for _, p := range peaks {
		if !ok || p.strength > best.strength {
			best, ok = p, true
		}
	}
	return best, ok
}

// edgePeaks finds a step where it lies, to a tenth of a pixel, along a
// probe crossing it square or aslant, in the frame or along its border.
func TestEdgePeaksFindsAStepWhereItLies(t *testing.T) {
	img := stepImage(100, 40, 50.5)
	cases := []struct {
		name           string
		u0, v0, u1, v1 float64
		want           float64 // distance of the step from (u0, v0)
	}{
		{"square, mid-frame", 40, 20, 60, 20, 10.5},
		{"square, first row", 40, 0, 60, 0, 10.5},
		{"square, last row", 40, 39, 60, 39, 10.5},
		{"aslant", 40, 15, 60, 25, 10.5 * math.Hypot(20, 10) / 20},
	}
	var sc profile
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pk, ok := strongestPeak(edgePeaks(img, tc.u0, tc.v0, tc.u1, tc.v1, nil, &sc))
			if !ok {
				t.Fatal("no step found")
			}
			if math.Abs(pk.t-tc.want) > 0.1 {
				t.Errorf("step at %.3f, want %.3f", pk.t, tc.want)
			}
		})
	}
}
