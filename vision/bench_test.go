package vision

import (
	"image"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/vision/synth"
)

// renderedScene renders a scene once per test binary: rendering a 1080p
// frame takes most of a second.
var renderedScene = sync.OnceValues(func() (*synth.Scene, image.Image) {
	s, err := synth.Generate(7, synth.Hard, synth.Options{})
	if err != nil {
		panic(err)
	}
	img, err := s.Render()
	if err != nil {
		panic(err)
	}
	return s, img
})

func benchDetector(b *testing.B, cal func(*synth.Scene) *calibration.Calibration) {
	s, img := renderedScene()
	mat, err := gocv.ImageToMatRGB(img)
	if err != nil {
		b.Fatal(err)
	}
	defer mat.Close()
	d := NewDetector(Options{Calibration: cal(s)})
	defer d.Close()
	if _, err := d.Detect(mat); err != nil { // the first frame builds the plane's tables
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.Detect(mat); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDetect1080p measures the whole pipeline on a rendered hard-tier
// 1920x1080 frame with its calibration.
func BenchmarkDetect1080p(b *testing.B) {
	benchDetector(b, func(s *synth.Scene) *calibration.Calibration {
		c, err := s.TrueCalibration()
		if err != nil {
			b.Fatal(err)
		}
		return c
	})
}
