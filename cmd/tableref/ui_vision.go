package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"strings"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
	"tableref/ui"
	"tableref/vision"
)

// sourceKind says how a vision source is paced.
type sourceKind int

const (
	// kindCamera: frames come at the camera's rate; Next blocks.
	kindCamera sourceKind = iota
	// kindVideo: a video file, played at videoFPS at most.
	kindVideo
	// kindStills: an image file or a folder of images, each shown for
	// Hold (the last one stays).
	kindStills
)

// videoFPS is the rate at which a video file is played: vision.Source
// does not tell a file's own rate, and 30 is a webcam's.
const videoFPS = 30

// stillFPS is the rate at which a still is emitted again while it is
// held, so that the settle gate sees the table stay still.
const stillFPS = 10

// liveState is shared between the frame source and the calibration
// wizard: the calibration in use (the wizard replaces it after solving)
// and the latest frame (the wizard captures it). Safe for concurrent use.
type liveState struct {
	mu         sync.Mutex
	cal        *calibration.Calibration
	calVersion int
	latest     image.Image
}

func (l *liveState) calibration() (*calibration.Calibration, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cal, l.calVersion
}

func (l *liveState) setCalibration(c *calibration.Calibration) {
	l.mu.Lock()
	l.cal = c
	l.calVersion++
	l.mu.Unlock()
}

func (l *liveState) frame() image.Image {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.latest
}

func (l *liveState) setFrame(img image.Image) {
	l.mu.Lock()
	l.latest = img
	l.mu.Unlock()
}

// visionSource is a ui.FrameSource over a vision.Source and a
// vision.Detector: it reads each frame, detects the disks and tokens,
// converts the frame to an image.Image (a copy: safe to hand to Fyne) and
// emits both, the pieces renamed by an idKeeper so that a disk keeps its
// id from frame to frame (the UI's corrections and tallies follow ids).
// Frames that cannot be read are counted and skipped; a frame the
// detector refuses (of a size other than the calibration's, say) is shown
// without a layout and marked as moving, so that no ruling is made from
// it; a camera that stops ends the run with an error saying so.
//
// Run owns the vision source: it closes it when it returns. Call Close
// instead when Run is never called.
type visionSource struct {
	src  vision.Source
	kind sourceKind
	// Hold is how long each still is shown before the next is read
	// (stills only); zero emits each still once (one image file).
	Hold time.Duration
	live *liveState
	now  func() time.Time
	once sync.Once
}

func newVisionSource(src vision.Source, kind sourceKind, live *liveState) *visionSource {
	return &visionSource{src: src, kind: kind, live: live, now: time.Now}
}

// Close releases the vision source if Run has not.
func (s *visionSource) Close() error {
	var err error
	s.once.Do(func() { err = s.src.Close() })
	return err
}

// frameTally counts what happened to the frames, for the status line.
type frameTally struct {
	read, skipped int
	lastSkip      error
}

func (t *frameTally) skip(err error) {
	t.skipped++
	t.lastSkip = err
}

// note is the status line's word about the frames.
func (t frameTally) note(warnings []string) string {
	var parts []string
	if t.skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d frames skipped (last: %v)", t.skipped, t.read+t.skipped, t.lastSkip))
	}
	parts = append(parts, warnings...)
	return strings.Join(parts, "; ")
}

// Run reads, detects and emits until the source ends (nil; an error when
// it ends without a frame read), ctx is done (ctx.Err()) or the camera
// stops (an error wrapping vision.ErrSourceGone).
func (s *visionSource) Run(ctx context.Context, emit func(ui.Frame)) error {
	defer s.Close()
	frame := gocv.NewMat()
	defer frame.Close()
	var det *vision.Detector
	detVersion := -1
	defer func() {
		if det != nil {
			det.Close()
		}
	}()
	var tally frameTally
	ids := newIDKeeper()
	seq := 0
	tick := time.Now()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := s.src.Next(&frame)
		switch {
		case errors.Is(err, io.EOF) && seq == 0 && tally.skipped > 0:
			// Nothing to show, and the window would wait for a first
			// frame for ever: say why.
			return fmt.Errorf("%s: no frame could be read (%d skipped, last: %v)", s.src.Name(), tally.skipped, tally.lastSkip)
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, vision.ErrSourceGone):
			return fmt.Errorf("%w; %d frames read, %d skipped; the last frame stays on screen", err, tally.read, tally.skipped)
		case err != nil:
			tally.skip(err)
			continue
		}
		cal, v := s.live.calibration()
		if v != detVersion {
			if det != nil {
				det.Close()
			}
			det, detVersion = vision.NewDetector(vision.Options{Calibration: cal}), v
			ids.UnitsChanged()
		}
		f, ok := s.detect(det, ids, frame, &tally)
		if !ok {
			continue
		}
		seq++
		f.Seq = seq
		emit(f)
		if err := s.pace(ctx, emit, f, &seq, &tick); err != nil {
			return err
		}
	}
}

// detect turns one frame into a ui.Frame, its pieces named by ids; false
// when the frame cannot be shown at all.
func (s *visionSource) detect(det *vision.Detector, ids *idKeeper, frame gocv.Mat, tally *frameTally) (ui.Frame, bool) {
	res, derr := det.Detect(frame)
	img, err := frame.ToImage()
	if err != nil {
		tally.skip(fmt.Errorf("%w: %v", vision.ErrBadFrame, err))
		return ui.Frame{}, false
	}
	s.live.setFrame(img)
	f := ui.Frame{Image: img, Time: s.now()}
	if derr != nil {
		tally.skip(derr)
		f.Motion = true
		f.Layout = models.Layout{Version: models.Version}
		f.Note = tally.note(nil)
		return f, true
	}
	tally.read++
	f.Layout = ids.Name(res.Layout, f.Time)
	f.Layout.Source = s.src.Name()
	f.Note = tally.note(res.Warnings)
	return f, true
}

// pace waits before the next frame: a video is played at videoFPS; a
// still is emitted again at stillFPS for Hold (so the settle gate sees
// it stay still); a camera is not waited for.
func (s *visionSource) pace(ctx context.Context, emit func(ui.Frame), f ui.Frame, seq *int, tick *time.Time) error {
	switch s.kind {
	case kindVideo:
		next := tick.Add(time.Second / videoFPS)
		if now := time.Now(); next.Before(now) {
			next = now // behind: do not rush to catch up
		}
		*tick = next
		return sleepCtx(ctx, time.Until(next))
	case kindStills:
		gap := time.Second / stillFPS
		for shown := gap; shown < s.Hold; shown += gap {
			if err := sleepCtx(ctx, gap); err != nil {
				return err
			}
			*seq++
			f.Seq, f.Time = *seq, s.now()
			emit(f)
		}
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
