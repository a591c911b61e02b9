package vision

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestDetectStreamDeliversInOrderAndSkipsBadFrames(t *testing.T) {
	dir := t.TempDir()
	m := gocv.NewMatWithSize(90, 160, gocv.MatTypeCV8UC3)
	defer m.Close()
	for i := range 7 {
		name := filepath.Join(dir, fmt.Sprintf("f%02d.png", i))
		if i == 3 {
			if err := os.WriteFile(name, []byte("broken"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !gocv.IMWrite(name, m) {
			t.Fatal("cannot write a test frame")
		}
	}
	for _, workers := range []int{1, 2, 3} {
		src, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		var frames []int
		bad := 0
		err = DetectStream(src, Options{}, workers, 0, func(r StreamResult) error {
			frames = append(frames, r.Frame)
			if r.Err != nil {
				if !errors.Is(r.Err, ErrBadFrame) {
					t.Errorf("frame %d: %v, want ErrBadFrame", r.Frame, r.Err)
				}
				bad++
			}
			return nil
		})
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{0, 1, 2, 3, 4, 5, 6}; !slices.Equal(frames, want) || bad != 1 {
			t.Errorf("%d workers: frames %v with %d bad, want %v with 1 bad", workers, frames, bad, want)
		}
	}
	src, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	stopErr := errors.New("enough")
	n := 0
	err = DetectStream(src, Options{}, 2, 0, func(r StreamResult) error {
		n++
		if n == 2 {
			return stopErr
		}
		return nil
	})
	if !errors.Is(err, stopErr) || n != 2 {
		t.Errorf("a delivery error: got %v after %d frames, want it back after 2", err, n)
	}
}

// fakeSource gives frames of w x h pixels (a grey that changes with each
// frame) until limit (then io.EOF), or what next returns for frame i.
type fakeSource struct {
	name  string
	w, h  int
	limit int
	next  func(i int) error // nil, or an error for frame i
	i     int
}

func (s *fakeSource) Next(dst *gocv.Mat) error {
	i := s.i
	if i >= s.limit {
		return io.EOF
	}
	s.i++
	if s.next != nil {
		if err := s.next(i); err != nil {
			return err
		}
	}
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(i%200), 90, 90, 0), s.h, s.w, gocv.MatTypeCV8UC3)
	defer m.Close()
	m.CopyTo(dst)
	return nil
}

func (s *fakeSource) Name() string { return s.name }
func (s *fakeSource) Close() error { return nil }

// A camera gone names itself once in the stream's error.
func TestDetectStreamNamesAGoneSourceOnce(t *testing.T) {
	src := &fakeSource{name: "camera:7", w: 64, h: 48, limit: 10, next: func(i int) error {
		if i == 2 {
			return fmt.Errorf("camera:7: %w (unplugged?)", ErrSourceGone)
		}
		return nil
	}}
	err := DetectStream(src, Options{}, 1, 0, func(StreamResult) error { return nil })
	if !errors.Is(err, ErrSourceGone) || strings.Count(err.Error(), "camera:7") != 1 {
		t.Errorf("got %v, want ErrSourceGone naming camera:7 once", err)
	}
}

// A stream cancelled (Ctrl-C) reads no frame after that, and delivers
// every frame read before, in order.
func TestDetectStreamStopsWhenCancelled(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		src := &fakeSource{name: "fake", w: 64, h: 48, limit: 50, next: func(i int) error {
			if i == 3 {
				cancel() // the Ctrl-C comes while frame 3 is read
			}
			return nil
		}}
		var got []int
		err := DetectStreamContext(ctx, src, Options{}, workers, 0, func(r StreamResult) error {
			got = append(got, r.Frame)
			return nil
		})
		cancel()
		if !errors.Is(err, context.Canceled) || !slices.Equal(got, []int{0, 1, 2, 3}) || src.i != 4 {
			t.Errorf("%d workers: got %v after reading %d frames, error %v; want frames [0 1 2 3], 4 read, context.Canceled", workers, got, src.i, err)
		}
	}
}
