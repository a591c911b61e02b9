package vision

import (
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"tableref/vision/synth"
)

// TestNoisyFramesKeepTheirChits: rendered medium tables with noise of 12
// grey levels a channel (a cheap camera in dim light). Read pixel by
// pixel, a third of a chit's pixels fell out of its colour's tolerance
// and the detector found 28 of the 48 chits of seeds 1-8; read smoothed
// (noisyColourKernel), 48. This test runs seeds 1-2: 10 of 14 chits
// found before.
func TestNoisyFramesKeepTheirChits(t *testing.T) {
	found, truth, disks, trueDisks := 0, 0, 0, 0
	for seed := uint64(1); seed <= 2; seed++ {
		s, img, cal := renderScene(t, seed, synth.Medium, synth.Options{})
		frame, err := gocv.ImageToMatRGB(img)
		if err != nil {
			t.Fatal(err)
		}
		b, err := frame.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 12))
		for i := range b {
			b[i] = byte(max(0, min(255, math.Round(float64(b[i])+12*rng.NormFloat64()))))
		}
		d := NewDetector(Options{Calibration: cal})
		res, err := d.Detect(frame)
		d.Close()
		frame.Close()
		if err != nil {
			t.Fatal(err)
		}
		used := map[int]bool{}
		for _, tt := range s.Truth.Tokens {
			for j, g := range res.Layout.Tokens {
				if !used[j] && math.Hypot(float64(tt.X-g.X), float64(tt.Y-g.Y)) < math.Max(0.5, float64(tt.R)) {
					used[j] = true
					found++
					break
				}
			}
		}
		truth += len(s.Truth.Tokens)
		disks += len(res.Layout.Disks)
		trueDisks += len(s.Truth.Disks)
	}
	t.Logf("chits found %d of %d; disks %d of %d", found, truth, disks, trueDisks)
	if found < truth-1 {
		t.Errorf("chits found %d of %d; want all but one at most", found, truth)
	}
}
