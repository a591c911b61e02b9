package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"tableref/vision"
)

// TestVisionSourceThatReadsNoFrameSaysWhy: a video or a folder whose every
// frame is unreadable ends without a frame; the window would wait for a
// first frame for ever. The run ends with an error that says why.
func TestVisionSourceThatReadsNoFrameSaysWhy(t *testing.T) {
	bad := fmt.Errorf("%w: cannot decode", vision.ErrBadFrame)
	src := &fakeSource{script: []any{bad, bad}}
	frames, err := collect(t, newVisionSource(src, kindVideo, &liveState{}))
	if len(frames) != 0 {
		t.Fatalf("got %d frames, want none", len(frames))
	}
	if err == nil || !strings.Contains(err.Error(), "no frame could be read") || !strings.Contains(err.Error(), "cannot decode") {
		t.Errorf("got %v, want an error saying no frame could be read, and why", err)
	}
	if errors.Is(err, vision.ErrSourceGone) {
		t.Errorf("got %v, want no claim that a camera was unplugged", err)
	}
}
