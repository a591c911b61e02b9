package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"strings"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision"
	"tableref/vision/track"
)

func init() {
	register(&command{
		name:    "track",
		summary: "follow a game on video or camera: settled, identified layouts as JSON Lines",
		usage: `Usage: tableref track [--calibration CAL.json] [--names LAYOUT.json] [--settle N]
                     [--max-frames N] VIDEO | FOLDER
       tableref track [--calibration CAL.json] [--names LAYOUT.json] --camera N

Watches a game and prints a layout each time the table settles in a new
state: no motion and no hand over the table for --settle frames. Each disk
keeps its id from one layout to the next, through moves by flipping (one
diameter a flip, at most its movement), hands reaching in, and a knocked
camera (the view is re-anchored on the disks that did not move, or you are
asked to recalibrate). Tokens dropped in a volley are read once they have
come to rest; moves made in quick succession are buffered, not lost.

Each line is a layout ("tableref analyze" reads it) with, under
"tracking": the frame, the events since the last layout (moved, new,
unseen, removed, seen-again, bump) and the questions the tracker will not guess
(two look-alike disks that may have swapped, a new disk that may be one
that vanished, a disk no longer seen, a view to recalibrate). A disk not
seen but kept at its last place carries "tracking": {"seen": false}.

A frame that cannot be used (unreadable, cut short, damaged, of another
size than the calibration, or without one than the first frame) is skipped
with its reason, told once however often it repeats; the summary on
standard error counts the frames used and skipped. With no frame usable,
track exits 1. Ctrl-C stops reading, prints the summary and exits 130.

Options:
  --calibration FILE  the calibration to use (default: none, pixels only)
  --names FILE        a layout naming the disks (ids, names, owners,
                      stats): adopted at the first settled table, by
                      nearest disk of the same size; a named disk not
                      on the table then is named when it appears at
                      its place
  --settle N          still frames before a ruling (default 15)
  --camera N          read camera N instead of a file
  --max-frames N      stop after N frames (default: all)

Examples:
  tableref track --calibration table.cal.json game.mp4 > game.jsonl
  tableref track --calibration table.cal.json --names army.json --camera 0
  tableref track frames/ | tableref analyze --format text -
`,
		run: runTrack,
	})
}

// trackDetector adapts vision.Detector to track.Detector.
type trackDetector struct{ det *vision.Detector }

func (d trackDetector) Detect(img image.Image) (models.Layout, error) {
	res, err := d.det.DetectImage(img)
	return res.Layout, err
}

// trackLine is the "tracking" field of a printed layout.
type trackLine struct {
	Frame     int              `json:"frame"`
	Readings  int              `json:"readings"`
	Events    []track.Event    `json:"events"`
	Questions []track.Question `json:"questions"`
}

func runTrack(args []string, e *env) error {
	fs := flag.NewFlagSet("track", flag.ContinueOnError)
	calPath := fs.String("calibration", "", "")
	names := fs.String("names", "", "")
	settle := fs.Int("settle", 15, "")
	camera := fs.Int("camera", -1, "")
	maxFrames := fs.Int("max-frames", 0, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	spec, err := sourceSpec(fs, pos, *camera, *maxFrames, "give one video or folder, or --camera N")
	if err != nil {
		return err
	}
	// One image is never a table at rest over several frames. (A folder
	// named like one is a folder.)
	if st, err := os.Stat(spec); vision.IsImageFile(spec) && (err != nil || !st.IsDir()) {
		return usageError("%s is one image: track follows a video, a folder of frames or a camera (\"tableref detect\" reads one image)", spec)
	}
	if *settle < 1 || *settle > 600 {
		return usageError("--settle %d: want 1 to 600 frames", *settle)
	}
	cal, err := loadCalibrationOrWarn(*calPath, "track", e)
	if err != nil {
		return err
	}
	var roster *models.Layout
	if *names != "" {
		l, err := models.Load(*names)
		if err != nil {
			return err
		}
		// A file with no disk (a calibration, an empty layout) would
		// name nothing without a word.
		if len(l.Disks) == 0 {
			return fmt.Errorf("--names %s holds no disk to name: give a layout of the named army", *names)
		}
		roster = &l
	}
	return onSource("track", spec, e, func(ctx context.Context, src vision.Source) error {
		if vision.KindOf(src) == vision.KindImage {
			return usageError("%s is one image: track follows a video, a folder of frames or a camera (\"tableref detect\" reads one image)", spec)
		}
		det := vision.NewDetector(vision.Options{Calibration: cal})
		defer det.Close()
		pipe := track.NewPipeline(trackDetector{det}, track.PipelineOptions{
			Gate: track.GateOptions{SettleFrames: *settle}, Tracker: track.Options{Calibration: cal}})
		return trackFrames(ctx, src, pipe, cal, roster, *maxFrames, e)
	})
}

// trackRun tallies a tracking run for its summary.
type trackRun struct {
	usable, rulings int
	skips           *skipLog
	guard           mismatchGuard
	cal             *calibration.Calibration
	w, h            int // the frames' size without a calibration: the first frame's
}

// trackFrames feeds the frames of src to the pipeline and prints each
// ruling, until the source ends, fails, or ctx is done (errInterrupted);
// the summary goes to stderr in every case. Frames that cannot be used
// are skipped and counted; with none usable the run fails.
func trackFrames(ctx context.Context, src vision.Source, pipe *track.Pipeline, cal *calibration.Calibration, roster *models.Layout, maxFrames int, e *env) error {
	frame := gocv.NewMat()
	defer frame.Close()
	run := &trackRun{skips: &skipLog{w: e.stderr, cmd: "track"}, guard: mismatchGuard{camera: vision.KindOf(src) == vision.KindCamera}, cal: cal}
	err := trackLoop(ctx, src, pipe, roster, maxFrames, &frame, run, e)
	run.skips.flush()
	fmt.Fprintf(e.stderr, "tableref track: %s: %d frames, %s, %d settled layouts\n", src.Name(), run.usable, run.skips, run.rulings)
	switch {
	case err != nil:
		return err
	case run.usable == 0:
		return fmt.Errorf("no frame could be read from %s", src.Name())
	}
	return nil
}

func trackLoop(ctx context.Context, src vision.Source, pipe *track.Pipeline, roster *models.Layout, maxFrames int, frame *gocv.Mat, run *trackRun, e *env) error {
	enc := json.NewEncoder(e.stdout)
	for n := 0; maxFrames == 0 || n < maxFrames; n++ {
		if ctx.Err() != nil {
			return errInterrupted
		}
		st, err := trackStep(src, pipe, n, frame, run)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil && !errors.Is(err, vision.ErrBadFrame) {
			return err // the camera gone, the detector unusable
		}
		if err != nil {
			// The pipeline's errors name the frame; the log does.
			msg, file := strings.TrimPrefix(err.Error(), fmt.Sprintf("frame %d: ", n)), currentFile(src)
			if file != "" && !strings.Contains(msg, file) {
				msg = file + ": " + msg
			}
			run.skips.skip(n, file, msg)
		}
		if gerr := run.guard.observe(src.Name(), err); gerr != nil {
			return gerr
		}
		if err != nil {
			continue
		}
		run.usable++
		for _, ev := range st.Notices {
			fmt.Fprintf(e.stderr, "tableref track: frame %d: %s\n", n, ev.Text)
		}
		if st.Ruling == nil {
			continue
		}
		if roster != nil {
			// Disks not on the table yet wait in the tracker, which names
			// them when they appear: told once, they need no more care.
			renamed, err := pipe.Tracker().Adopt(*roster)
			if unplaced := (*track.UnplacedError)(nil); errors.As(err, &unplaced) {
				fmt.Fprintf(e.stderr, "tableref track: --names: %v\n", err)
			} else if err != nil {
				return fmt.Errorf("--names: %w", err)
			}
			// The ruling was made before the names: its layout, events
			// and questions all take them.
			*st.Ruling = pipe.Tracker().RenameRuling(*st.Ruling, renamed)
			roster = nil
		}
		if err := writeRuling(enc, src.Name(), st.Ruling); err != nil {
			return err
		}
		run.rulings++
	}
	return nil
}

// currentFile returns the file src read last, for a folder ("" for other
// sources).
func currentFile(src vision.Source) string {
	if f, ok := src.(interface{ Current() string }); ok {
		return f.Current()
	}
	return ""
}

// trackStep reads frame n of src and steps the pipeline with it. A frame
// of another size than the calibration's, or without one than the first
// frame's (the tracker follows one camera mode), is a bad frame, not
// looked at.
func trackStep(src vision.Source, pipe *track.Pipeline, n int, frame *gocv.Mat, run *trackRun) (track.Step, error) {
	if err := src.Next(frame); err != nil {
		return track.Step{}, err
	}
	w, h := frame.Cols(), frame.Rows()
	switch {
	case run.cal != nil:
		if err := run.cal.CheckFrame(w, h); err != nil {
			return track.Step{}, fmt.Errorf("%w: %w", vision.ErrBadFrame, err)
		}
	case run.w == 0:
		run.w, run.h = w, h
	case w != run.w || h != run.h:
		return track.Step{}, fmt.Errorf("%w: this frame is %dx%d, the first was %dx%d: track follows one camera mode",
			vision.ErrBadFrame, w, h, run.w, run.h)
	}
	img, err := frame.ToImage()
	if err != nil {
		return track.Step{}, fmt.Errorf("%w: %v", vision.ErrBadFrame, err)
	}
	return pipe.Step(n, img)
}

// writeRuling prints a ruling as one layout line with its "tracking"
// field.
func writeRuling(enc *json.Encoder, name string, r *track.Ruling) error {
	// A line with one id twice would be refused by analyze; the tracker
	// never makes one, and should it ever, the run stops rather than
	// print it.
	if id, dup := repeatedID(r.Layout); dup {
		return fmt.Errorf("frame %d: the tracked layout gives the id %q twice; not printed", r.Frame, id)
	}
	l := r.Layout.Clone()
	l.Source = fmt.Sprintf("%s frame %d", name, r.Frame)
	extra, err := json.Marshal(trackLine{Frame: r.Frame, Readings: r.Readings, Events: nonNil(r.Events), Questions: nonNil(r.Questions)})
	if err != nil {
		return err
	}
	if l.Extra == nil {
		l.Extra = map[string]json.RawMessage{}
	}
	l.Extra["tracking"] = extra
	return enc.Encode(l)
}

// repeatedID returns an id that two pieces of l hold: disks and tokens
// share one id space (table-model.md).
func repeatedID(l models.Layout) (string, bool) {
	seen := map[string]bool{}
	var ids []string
	for _, d := range l.Disks {
		ids = append(ids, d.ID)
	}
	for _, t := range l.Tokens {
		ids = append(ids, t.ID)
	}
	for _, id := range ids {
		if seen[id] {
			return id, true
		}
		seen[id] = true
	}
	return "", false
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
