package vision

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
