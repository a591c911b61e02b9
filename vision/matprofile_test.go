//go:build matprofile

package vision

import (
	"runtime"
	"testing"

	"gocv.io/x/gocv"

	"tableref/internal/matleak"
	"tableref/vision/synth"
)

// TestMain, built with -tags matprofile, fails the package when a test
// leaves a gocv Mat open.
func TestMain(m *testing.M) { matleak.Main(m) }

// TestDetectorMemoryStaysFlat runs the detector over many frames: no Mat
// may be created and left open per frame, and the Go heap must not grow.
func TestDetectorMemoryStaysFlat(t *testing.T) {
	_, img, cal := renderScene(t, 5, synth.Medium, synth.Options{Width: 480, Height: 270})
	d, frame := warmDetector(t, img, cal)
	mats := gocv.MatProfile.Count()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const frames = 300
	for range frames {
		if _, err := d.Detect(frame); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if n := gocv.MatProfile.Count(); n != mats {
		t.Errorf("%d Mats open after %d frames, %d after the first: the detector leaks", n, frames, mats)
	}
	if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 8<<20 {
		t.Errorf("the Go heap grew by %d bytes over %d frames", grow, frames)
	}
}
