package vision

import (
	"math"
	"math/rand/v2"
	"testing"
)

// stepImage returns a w x h frame dark left of column edge and light
// right of it, the step a two-pixel ramp centred on edge, with uniform
// noise of up to noise levels added to every channel of every pixel.
func stepImage(w, h int, edge, noise float64, seed uint64) bgrImage {
	rng := rand.New(rand.NewPCG(seed, 1))
	img := bgrImage{pix: make([]uint8, 3*w*h), w: w, h: h}
	for y := range h {
		for x := range w {
			v := 60 + 120*math.Min(math.Max((float64(x)-edge+1)/2, 0), 1)
			for k := range 3 {
				n := 0.0
				if noise > 0 {
					n = (2*rng.Float64() - 1) * noise
				}
				img.pix[3*(y*w+x)+k] = uint8(math.Min(math.Max(math.Round(v+n), 0), 255))
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
// probe crossing it square or aslant, in the frame or along its border
// (where the lines beside the probe leave the frame, the probe's own
// line serves alone).
func TestEdgePeaksFindsAStepWhereItLies(t *testing.T) {
	img := stepImage(100, 40, 50.5, 0, 0)
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

// Averaged across the probe, the colours of a noisy frame place its step
// nearer where it lies: on a two-pixel ramp under noise of up to 40
// levels, the strongest peak of 200 probes lies 0.28 pixels off it, root
// mean square (1.41 along the probe's own line alone, where the noise's
// own steps outdo the ramp's on some probes).
func TestEdgePeaksAverageNoiseAcrossTheProbe(t *testing.T) {
	img := stepImage(100, 210, 50.5, 40, 7)
	var sc profile
	sum, n := 0.0, 0
	for y := 5; y < 205; y++ {
		pk, ok := strongestPeak(edgePeaks(img, 40, float64(y), 60, float64(y), nil, &sc))
		if !ok {
			t.Fatalf("row %d: no step found", y)
		}
		sum += (pk.t - 10.5) * (pk.t - 10.5)
		n++
	}
	if rms := math.Sqrt(sum / float64(n)); rms > 0.5 {
		t.Errorf("step found %.3f pixels off, root mean square; want 0.5 or less", rms)
	}
}

// stepDist counts a grey step as RGB does, a step in green (most of the
// luma) more (1.38 times) and one in blue less (0.92 times).
func TestStepDistWeighsTheLuma(t *testing.T) {
	cases := []struct {
		name string
		a, b [3]float64
		want float64
	}{
		{"grey", [3]float64{100, 100, 100}, [3]float64{130, 130, 130}, 30 * math.Sqrt(3)},
		{"none", [3]float64{12, 200, 7}, [3]float64{12, 200, 7}, 0},
		{"green", [3]float64{0, 0, 0}, [3]float64{0, 10, 0}, 10 * math.Sqrt(1+2*0.587*(3*0.587-1))},
		{"blue", [3]float64{0, 0, 0}, [3]float64{0, 0, 10}, 10 * math.Sqrt(1+2*0.114*(3*0.114-1))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := stepDist(tc.a, tc.b); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("stepDist = %.6f, want %.6f", got, tc.want)
			}
			if got := stepDist(tc.b, tc.a); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("stepDist reversed = %.6f, want %.6f", got, tc.want)
			}
		})
	}
	if g, b := stepDist([3]float64{}, [3]float64{0, 10, 0}), stepDist([3]float64{}, [3]float64{0, 0, 10}); g < 1.4*b {
		t.Errorf("green step %.2f, blue %.2f: want green counted more than 1.4 times blue", g, b)
	}
}
