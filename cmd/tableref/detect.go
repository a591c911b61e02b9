package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
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
milliseconds per stage, frames skipped) goes to standard error.

Without a calibration ("tableref calibrate" makes one) positions are in
pixels only, and tableref says so.

Options:
  --calibration FILE  the calibration to use (default: none)
  --camera N          read camera N instead of a file
  --max-frames N      stop after N frames (default: all; 0 = all)
  --workers N         frames detected at once (default 2, one per core:
                      a camera's 30 frames a second need both)

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
	cal, err := loadCalibrationOrWarn(*calPath, "detect", e)
	if err != nil {
		return err
	}
	src, err := vision.Open(spec)
	if err != nil {
		return err
	}
	defer src.Close()
	return detectFrames(src, vision.Options{Calibration: cal}, *workers, *maxFrames, e)
}

// sourceSpec returns the frame source named by the command line fs: one
// file or folder, or --camera N (camera < 0 when not given); it also
// refuses a negative --camera or --max-frames given.
func sourceSpec(fs *flag.FlagSet, pos []string, camera, maxFrames int, usage string) (string, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case given["camera"] && camera < 0:
		return "", usageError("--camera %d: cameras are numbered from 0", camera)
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
// warns that positions will be in pixels and returns nil.
func loadCalibrationOrWarn(path, cmd string, e *env) (*calibration.Calibration, error) {
	if path == "" {
		fmt.Fprintf(e.stderr, "tableref %s: warning: no calibration given; positions are in pixels, not centimetres\n", cmd)
		return nil, nil
	}
	return calibration.Load(path)
}

// detectSummary tallies a detection run for the report on stderr.
type detectSummary struct {
	frames, skipped int
	stages          map[string]time.Duration
	order           []string
	took            time.Duration
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
	fmt.Fprintf(w, "tableref detect: %s: %d frames, %d skipped, %.1f frames/s; ms per frame: %s\n",
		name, s.frames, s.skipped, fps, stages)
}

func detectFrames(src vision.Source, opt vision.Options, workers, maxFrames int, e *env) error {
	sum := &detectSummary{stages: map[string]time.Duration{}}
	start := time.Now()
	single := isSingleImage(src)
	enc := json.NewEncoder(e.stdout)
	err := vision.DetectStream(src, opt, workers, maxFrames, func(r vision.StreamResult) error {
		if r.Err != nil {
			sum.skipped++
			msg := r.Err.Error()
			if r.File != "" && !strings.Contains(msg, r.File) {
				msg = r.File + ": " + msg
			}
			fmt.Fprintf(e.stderr, "tableref detect: skipped frame %d: %s\n", r.Frame, msg)
			return nil
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
	if err != nil {
		return err
	}
	if sum.frames == 0 {
		return fmt.Errorf("no frame could be read from %s", src.Name())
	}
	return nil
}

// isSingleImage reports whether the source is one image file, whose
// layout is printed indented rather than as a JSON line.
func isSingleImage(src vision.Source) bool {
	return src.Name() != "" && vision.IsImageFile(src.Name())
}
