//go:build matprofile

package vision

import (
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
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

// TestStreamMemoryStaysFlat streams the 40-disk 1920x1080 table through
// DetectStream on two workers, the frames cycling through the rendered
// table and copies of it with the sensor's noise drawn afresh: once the
// stream has warmed up, neither the Go heap nor the process's resident
// memory (OpenCV's own allocations too) may grow (the least of the last
// three checkpoints against the least of the first three, each of ten
// checkpoints catching the other worker mid-frame), and no Mat is left
// open. It streams 100 frames; TABLEREF_SOAK_FRAMES=10000 makes it the
// soak the README reports (about ten minutes).
func TestStreamMemoryStaysFlat(t *testing.T) {
	frames := 100
	if v := os.Getenv("TABLEREF_SOAK_FRAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 20 {
			t.Fatalf("TABLEREF_SOAK_FRAMES=%q: want a number of frames, at least 20", v)
		}
		frames = n
	}
	cal, base := crowdedFrame(t)
	defer base.Close()
	pix := base.ToBytes()
	rng := rand.New(rand.NewPCG(7, 8))
	src := &cycleSource{n: frames}
	for k := range 4 {
		noisy := slices.Clone(pix)
		if k > 0 {
			for i := range noisy {
				noisy[i] = uint8(min(255, max(0, int(noisy[i])+int(rng.NormFloat64()*3))))
			}
		}
		m, err := gocv.NewMatFromBytes(base.Rows(), base.Cols(), base.Type(), noisy)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		src.frames = append(src.frames, m)
	}
	mats := gocv.MatProfile.Count()
	// The heap after a GC and the resident set, at ten checkpoints; the
	// first one, a tenth of the way in, is the warmed-up level.
	type point struct {
		frame     int
		heap, rss uint64
	}
	var points []point
	every := frames / 10
	err := DetectStream(src, Options{Calibration: cal}, 2, 0, func(r StreamResult) error {
		if r.Err != nil {
			return r.Err
		}
		if (r.Frame+1)%every == 0 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			points = append(points, point{r.Frame + 1, ms.HeapAlloc, residentBytes(t)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := gocv.MatProfile.Count(); n != mats {
		t.Errorf("%d Mats open after the stream, %d before it", n, mats)
	}
	if len(points) < 2 {
		t.Fatalf("%d checkpoints", len(points))
	}
	for _, p := range points {
		t.Logf("frame %6d: heap %6.1f MB, resident %6.1f MB", p.frame, float64(p.heap)/(1<<20), float64(p.rss)/(1<<20))
	}
	// A checkpoint also counts what the other worker's frame holds at that
	// moment (up to 17 MB of heap measured): a leak is what the least of
	// the last three checkpoints holds beyond the least of the first three.
	least := func(ps []point) point {
		m := ps[0]
		for _, p := range ps[1:] {
			m.heap, m.rss = min(m.heap, p.heap), min(m.rss, p.rss)
		}
		return m
	}
	k := min(3, len(points)/2)
	warm, end := least(points[:k]), least(points[len(points)-k:])
	if end.heap > warm.heap+16<<20 {
		t.Errorf("the Go heap grew from %d to %d bytes (the least of the first and of the last %d checkpoints)", warm.heap, end.heap, k)
	}
	if end.rss > warm.rss+64<<20 {
		t.Errorf("the resident memory grew from %d to %d bytes (the least of the first and of the last %d checkpoints)", warm.rss, end.rss, k)
	}
}

// cycleSource gives n frames, copies of its frames in turn.
type cycleSource struct {
	frames []gocv.Mat
	n, i   int
}

func (c *cycleSource) Next(dst *gocv.Mat) error {
	if c.i == c.n {
		return io.EOF
	}
	c.frames[c.i%len(c.frames)].CopyTo(dst)
	c.i++
	return nil
}
func (c *cycleSource) Name() string { return "cycle" }
func (c *cycleSource) Close() error { return nil }

// residentBytes is the process's resident set, from /proc/self/statm.
func residentBytes(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no resident set to read: %v", err)
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		t.Fatalf("/proc/self/statm: %q", b)
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		t.Fatalf("/proc/self/statm: %v", err)
	}
	return pages * uint64(os.Getpagesize())
}
