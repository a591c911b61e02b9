package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision"
)

func init() {
	register(&command{
		name:    "detect",
		summary: "find the disks and tokens in an image, a video, a folder of images or a camera",
		usage: `Usage: tableref detect [--calibration CAL.json] [--max-frames N] IMAGE | VIDEO | FOLDER
       tableref detect [--calibration CAL.json] --camera N

Looks at the table and prints what is on it as a layout (JSON, the format
"tableref analyze" reads): every disk with its centre and radius in
centimetres (x, y, r) and in pixels (px, py, pr), its stacking level z and
rim colour, and every token with the disks it touches. One image gives one
layout; a video, a folder or a camera gives one layout per frame, one JSON
object a line (JSON Lines). A summary (frames, frames per second,
milliseconds per stage, frames skipped and why the last was) goes to
standard error. A frame that cannot be used (unreadable, cut short,
damaged, of another size than the calibration) is skipped with its reason,
told once however often it repeats. Ctrl-C stops reading: the frames
already read are printed, then the summary, and tableref exits 130.

Without a calibration ("tableref calibrate" makes one) positions are in
pixels only, and tableref says so.

Options:
  --calibration FILE  the calibration to use (default: none)
  --camera N          read camera N instead of a file
  --max-frames N      stop after N frames (default: all; 0 = all)
  --workers N         frames detected at once, 1 to 64 (default 2, one
                      per core: a camera's 30 frames a second need both)

Examples:
  tableref detect --calibration table.cal.json photo.jpg > layout.json
  tableref detect --calibration table.cal.json game.mp4 > game.jsonl
  tableref detect --camera 0 --max-frames 100
  tableref detect photo.jpg | tableref analyze --format text -
`,
		run: runDetect,
	})
}

func runDetect(args []string, e *env) error {
	fs := flag.NewFlagSet("detect", flag.ContinueOnError)
	calPath := fs.String("calibration", "", "")
	camera := fs.Int("camera", -1, "")
	maxFrames := fs.Int("max-frames", 0, "")
	workers := fs.Int("workers", 2, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	spec, err := sourceSpec(fs, pos, *camera, *maxFrames, "give one image, video or folder, or --camera N")
	if err != nil {
		return err
	}
	if *workers < 1 || *workers > maxWorkers {
		return usageError("--workers %d: want 1 to %d frames detected at once", *workers, maxWorkers)
	}
	cal, err := loadCalibrationOrWarn(*calPath, "detect", e)
	if err != nil {
		return err
	}
	return onSource("detect", spec, e, func(ctx context.Context, src vision.Source) error {
		return detectFrames(ctx, src, vision.Options{Calibration: cal}, *workers, *maxFrames, e)
	})
}

// onSource opens the frame source spec and runs run on it until Ctrl-C
// or SIGTERM cancels ctx; the source is closed before an interrupted run
// ends the process with exit 130 (exitIfInterrupted).
func onSource(cmd, spec string, e *env, run func(ctx context.Context, src vision.Source) error) error {
	ctx, stop := interruptible()
	defer stop()
	err := func() error {
		src, err := vision.Open(spec)
		if err != nil {
			return err
		}
		defer src.Close()
		return run(ctx, src)
	}()
	return exitIfInterrupted(err, cmd, e)
}

// maxWorkers bounds --workers: each worker holds a detector and frames
// (some 12 MB at 1080p), and two cores gain nothing from more.
const maxWorkers = 64

// errInterrupted ends a run stopped by Ctrl-C (SIGINT) or SIGTERM, once
// the frames in flight are printed and the summary written.
var errInterrupted = errors.New("interrupted")

// interruptible returns a context done at the first Ctrl-C or SIGTERM;
// from then on a second one ends the process at once (the default).
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// exitInterrupted ends the process with the shell's code for Ctrl-C, 130
// (the command's sources are closed by then); tests replace it. The other
// errors go back to run, which maps them to 1 or 2.
var exitInterrupted = func() { os.Exit(130) }

// exitIfInterrupted says that the run was interrupted and exits 130 when
// err is errInterrupted, and returns err otherwise.
func exitIfInterrupted(err error, cmd string, e *env) error {
	if !errors.Is(err, errInterrupted) {
		return err
	}
	fmt.Fprintf(e.stderr, "tableref %s: interrupted\n", cmd)
	exitInterrupted()
	return err
}

// sourceSpec returns the frame source named by the command line fs: one
// file or folder, or --camera N (camera < 0 when not given); it also
// refuses a negative --camera or --max-frames given.
func sourceSpec(fs *flag.FlagSet, pos []string, camera, maxFrames int, usage string) (string, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case given["camera"] && (camera < 0 || camera > vision.MaxCamera):
		return "", usageError("--camera %d: cameras are numbered from 0 to %d", camera, vision.MaxCamera)
	case maxFrames < 0:
		return "", usageError("--max-frames %d: give the number of frames to read, or 0 for all", maxFrames)
	}
	switch {
	case camera >= 0 && len(pos) == 0:
		return fmt.Sprintf("camera:%d", camera), nil
	case camera < 0 && len(pos) == 1:
		return pos[0], nil
	}
	return "", usageError("%s", usage)
}

// loadCalibrationOrWarn loads the calibration at path, or, with no path,
// warns that positions will be in pixels and returns nil. A calibration
// whose board showed a dim or coloured light is said so once, here, for
// every frame of a video or camera.
func loadCalibrationOrWarn(path, cmd string, e *env) (*calibration.Calibration, error) {
	if path == "" {
		fmt.Fprintf(e.stderr, "tableref %s: warning: no calibration given; positions are in pixels, not centimetres\n", cmd)
		return nil, nil
	}
	cal, err := calibration.Load(path)
	if err == nil {
		if note := vision.LightCorrection(cal); note != "" {
			fmt.Fprintf(e.stderr, "tableref %s: warning: %s\n", cmd, note)
		}
	}
	return cal, err
}

// skipLog tells on stderr why frames are skipped: a reason once, however
// many frames in a row it holds for (a camera in another mode than the
// calibration's would say it 30 times a second), then how many more it
// held for, when another reason comes or the run ends.
type skipLog struct {
	w       io.Writer
	cmd     string
	n       int    // frames skipped
	last    string // why the last one was
	lastKey string // that reason, its file left out
	repeats int    // frames skipped since for the last reason, not told yet
}

// skip tells that frame was skipped for reason, unless the frame before
// was for the same; file is the frame's file ("" for none), which does not
// make another reason.
func (l *skipLog) skip(frame int, file, reason string) {
	l.n++
	key := reason
	if file != "" {
		key = strings.ReplaceAll(reason, file, "")
	}
	l.last = reason
	if l.n > 1 && key == l.lastKey {
		l.repeats++
		return
	}
	l.flush()
	fmt.Fprintf(l.w, "tableref %s: skipped frame %d: %s\n", l.cmd, frame, reason)
	l.lastKey = key
}

// flush tells how many frames were skipped since for the reason last told.
func (l *skipLog) flush() {
	if l.repeats > 0 {
		fmt.Fprintf(l.w, "tableref %s: skipped %d more frames for the same reason\n", l.cmd, l.repeats)
		l.repeats = 0
	}
}

// String is the summary's part: "N skipped (last: reason)".
func (l *skipLog) String() string {
	if l.n == 0 {
		return "0 skipped"
	}
	return fmt.Sprintf("%d skipped (last: %s)", l.n, l.last)
}

// cameraMismatchRun is the number of frames in a row of another size than
// the calibration's, none usable before, that ends a camera's run: it
// will not change mode by itself.
const cameraMismatchRun = 30

// mismatchGuard ends a camera's run whose frames are not of the
// calibration's size from the start.
type mismatchGuard struct {
	camera bool
	usable bool // a frame was usable
	run    int  // frames in a row of the wrong size
}

// observe takes the outcome of a frame (nil: usable) and returns an error
// once a camera gave cameraMismatchRun frames of the wrong size and none
// usable.
func (g *mismatchGuard) observe(name string, err error) error {
	switch {
	case err == nil:
		g.usable, g.run = true, 0
		return nil
	case !errors.Is(err, calibration.ErrMismatch):
		return nil
	}
	g.run++
	if !g.camera || g.usable || g.run < cameraMismatchRun {
		return nil
	}
	_, why, _ := strings.Cut(err.Error(), "calibration does not match: ")
	return fmt.Errorf("%s: its first %d frames are all of another size than the calibration (%s): calibrate at the camera's resolution, or set the camera to the calibration's mode",
		name, g.run, strings.TrimSuffix(why, "; calibrate again for this camera mode"))
}

// detectSummary tallies a detection run for the report on stderr.
type detectSummary struct {
	frames int
	skips  *skipLog
	stages map[string]time.Duration
	order  []string
	took   time.Duration
}

func (s *detectSummary) add(r vision.Result) {
	for _, st := range r.Stages {
		if _, ok := s.stages[st.Name]; !ok {
			s.order = append(s.order, st.Name)
		}
		s.stages[st.Name] += st.Took
	}
}

func (s *detectSummary) write(w io.Writer, name string) {
	fps := 0.0
	if s.took > 0 {
		fps = float64(s.frames) / s.took.Seconds()
	}
	var parts []string
	for _, n := range s.order {
		parts = append(parts, fmt.Sprintf("%s %.1f", n, float64(s.stages[n].Microseconds())/1000/float64(max(s.frames, 1))))
	}
	stages := strings.Join(parts, ", ")
	if len(parts) == 0 {
		stages = "none detected"
	}
	s.skips.flush()
	fmt.Fprintf(w, "tableref detect: %s: %d frames, %s, %.1f frames/s; ms per frame: %s\n",
		name, s.frames, s.skips, fps, stages)
}

// detectFrames detects the frames of src and prints their layouts, until
// the source ends, fails, or ctx is done (errInterrupted, after the frames
// in flight are printed); the summary goes to stderr in every case.
func detectFrames(ctx context.Context, src vision.Source, opt vision.Options, workers, maxFrames int, e *env) error {
	sum := &detectSummary{stages: map[string]time.Duration{}, skips: &skipLog{w: e.stderr, cmd: "detect"}}
	guard := &mismatchGuard{camera: vision.KindOf(src) == vision.KindCamera}
	start := time.Now()
	single := vision.KindOf(src) == vision.KindImage
	enc := json.NewEncoder(e.stdout)
	err := vision.DetectStreamContext(ctx, src, opt, workers, maxFrames, func(r vision.StreamResult) error {
		if r.Err != nil {
			msg := r.Err.Error()
			if r.File != "" && !strings.Contains(msg, r.File) {
				msg = r.File + ": " + msg
			}
			sum.skips.skip(r.Frame, r.File, msg)
		}
		if err := guard.observe(src.Name(), r.Err); err != nil || r.Err != nil {
			return err
		}
		sum.frames++
		sum.add(r.Result)
		// The spec's "camera:0 frame 1234 | file.png": an image's own
		// file, a video's or a camera's frame.
		r.Result.Layout.Source = r.File
		if r.File == "" {
			r.Result.Layout.Source = fmt.Sprintf("%s frame %d", src.Name(), r.Frame)
		}
		if single {
			// The detector's doubts about the photograph (a slant, a disk
			// too covered to measure well); "no calibration" is said above.
			for _, w := range r.Result.Warnings {
				if !strings.HasPrefix(w, "no calibration") && w != vision.LightCorrection(opt.Calibration) {
					fmt.Fprintf(e.stderr, "tableref detect: warning: %s\n", w)
				}
			}
			data, err := models.Marshal(r.Result.Layout)
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(data)
			return err
		}
		return enc.Encode(r.Result.Layout)
	})
	sum.took = time.Since(start)
	sum.write(e.stderr, src.Name())
	switch {
	case ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())):
		return errInterrupted
	case err != nil:
		return err
	case sum.frames == 0:
		return fmt.Errorf("no frame could be read from %s", src.Name())
	}
	return nil
}
