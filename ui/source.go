package ui

import (
	"context"
	"image"
	"time"

	"tableref/engine"
	"tableref/engine/rulesets"
	"tableref/models"
)

// Frame is one view of the table: the image shown to the player and the
// layout read from it.
//
// The layout's disks and tokens should carry their pixel circles
// (models.ImageCircle, image frame of Image) so that the overlay lands on
// the image; RenderLayout writes them for a layout drawn from a file. A
// frame whose disks carry no pixel circles is drawn by scaling the table
// frame onto the image.
type Frame struct {
	// Image is the picture of the table. The receiver must not change it.
	Image image.Image
	// Layout is what was read from Image.
	Layout models.Layout
	// Time is when the frame was captured.
	Time time.Time
	// Seq numbers the frames of a source from 1.
	Seq int
	// Motion is set by a source that sees movement or a hand over the
	// table: the frame is shown but rulings wait (see SettleGate).
	Motion bool
	// Note is a short word from the source about its frames, shown in
	// the status line ("3 frames skipped: ...", "no calibration: ..."),
	// empty when all is well.
	Note string
}

// FrameSource yields frames of the table: a camera through vision, a video,
// a layout file, a stream of layouts.
//
// Run sends frames to emit, in order, until the source ends (it then
// returns nil) or ctx is done (it then returns ctx.Err()). emit never
// blocks for long: the UI keeps only the latest frame. Run is called on a
// goroutine of its own and must not touch widgets.
type FrameSource interface {
	Run(ctx context.Context, emit func(Frame)) error
}

// Analyzer turns a layout into an analysis report under the rules of the
// given name ("geometry", "diskwars", "whdiskwars", ...). It may be slow
// and is called off the UI goroutine; it must be safe for concurrent use.
type Analyzer interface {
	Analyze(l models.Layout, rules string) (engine.Report, error)
}

// EngineAnalyzer is the Analyzer of the engine: the rulesets listed by
// engine/rulesets.
type EngineAnalyzer struct{}

// Analyze looks the rules up by name and applies them.
func (EngineAnalyzer) Analyze(l models.Layout, rules string) (engine.Report, error) {
	rs, err := rulesets.Lookup(rules)
	if err != nil {
		return engine.Report{}, err
	}
	return engine.Analyze(l, rs)
}

// LayoutSource plays layouts as frames, each drawn top-down by
// RenderLayout: a layout file (one layout) or a recorded stream (JSON
// Lines). One layout is emitted once and the source ends (the table is
// then settled). Several are played like a camera would see them: each
// layout is shown for Interval (2 s when zero) at FrameRate frames a
// second (10 when zero), so that the settle gate sees it stay still; the
// play starts over when Loop is set.
type LayoutSource struct {
	Layouts   []models.Layout
	Interval  time.Duration
	FrameRate float64
	Loop      bool
	// Width and Height bound the rendered image in pixels (1200 by 900
	// when zero).
	Width, Height int
	// Now gives the frames' timestamps (time.Now when nil).
	Now func() time.Time
}

// Run emits the layouts as frames.
func (s *LayoutSource) Run(ctx context.Context, emit func(Frame)) error {
	if len(s.Layouts) == 0 {
		return nil
	}
	now := s.Now
	if now == nil {
		now = time.Now
	}
	frames := s.render()
	if len(frames) == 1 {
		f := frames[0]
		f.Seq, f.Time = 1, now()
		emit(f)
		return nil
	}
	interval, tick := s.timing()
	seq := 0
	for {
		for _, f := range frames {
			for shown := time.Duration(0); shown < interval; shown += tick {
				seq++
				f.Seq, f.Time = seq, now()
				emit(f)
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(tick):
				}
			}
		}
		if !s.Loop {
			return nil
		}
	}
}

func (s *LayoutSource) timing() (interval, tick time.Duration) {
	interval, rate := s.Interval, s.FrameRate
	if interval <= 0 {
		interval = 2 * time.Second
	}
	if rate <= 0 {
		rate = 10
	}
	return interval, time.Duration(float64(time.Second) / rate)
}

// render draws every layout once, all with the scale of the first, so
// that a disk that does not move stays on the same pixels.
func (s *LayoutSource) render() []Frame {
	w, h := s.Width, s.Height
	if w <= 0 || h <= 0 {
		w, h = 1200, 900
	}
	view := FitView(s.Layouts, w, h)
	out := make([]Frame, len(s.Layouts))
	for i, l := range s.Layouts {
		img, withPixels := RenderLayout(l, view)
		out[i] = Frame{Image: img, Layout: withPixels}
	}
	return out
}
