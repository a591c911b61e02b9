package vision

import (
	"image"
	"io"
	"sync"
	"testing"
	"time"

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
	d, mat := warmDetector(b, img, cal(s))
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

// repeatSource yields the same frame n times, as a camera delivering raw
// frames would (no decoding).
type repeatSource struct {
	frame gocv.Mat
	n     int
}

func (r *repeatSource) Next(dst *gocv.Mat) error {
	if r.n == 0 {
		return io.EOF
	}
	r.n--
	r.frame.CopyTo(dst)
	return nil
}
func (r *repeatSource) Name() string { return "repeat" }
func (r *repeatSource) Close() error { return nil }

// crowdedScene is a 1920x1080 medium-tier table with 40 disks.
var crowdedScene = sync.OnceValues(func() (*synth.Scene, image.Image) {
	s, err := synth.Generate(3, synth.Medium, synth.Options{Disks: 40})
	if err != nil {
		panic(err)
	}
	img, err := s.Render()
	if err != nil {
		panic(err)
	}
	return s, img
})

// crowdedFrame returns the crowded table's true calibration and its
// photograph as a BGR Mat, which the caller closes.
func crowdedFrame(tb testing.TB) (*calibration.Calibration, gocv.Mat) {
	tb.Helper()
	s, img := crowdedScene()
	cal, err := s.TrueCalibration()
	if err != nil {
		tb.Fatal(err)
	}
	mat, err := gocv.ImageToMatRGB(img)
	if err != nil {
		tb.Fatal(err)
	}
	return cal, mat
}

// BenchmarkStream40Disks measures the end-to-end rate of a stream of
// 1920x1080 frames of a 40-disk table, detected on two workers (one per
// core), in frames per second.
func BenchmarkStream40Disks(b *testing.B) {
	cal, mat := crowdedFrame(b)
	defer mat.Close()
	const frames = 60
	b.ResetTimer()
	for b.Loop() {
		src := &repeatSource{frame: mat, n: frames}
		start := time.Now()
		disks := 0
		err := DetectStream(src, Options{Calibration: cal}, 2, 0, func(r StreamResult) error {
			disks = len(r.Result.Layout.Disks)
			return r.Err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(frames/time.Since(start).Seconds(), "frames/s")
		b.ReportMetric(float64(disks), "disks")
	}
}
