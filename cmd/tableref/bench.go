package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tableref/vision/bench"
	"tableref/vision/synth"
)

func init() {
	register(&command{
		name:    "bench",
		summary: "measure calibration and detection on synthetic tables (tier by tier) and real photographs",
		usage: `Usage: tableref bench [--scenes N] [--seed S] [--tiers LIST] [--size WxH] [--format text|json]
                     [--realdata DIR | --no-realdata] [--no-detect] [--decoder go|opencv]
                     [--lamp DEG]

Renders synthetic tables (see "tableref synth") and measures, for each
difficulty tier:

  calibration  the board view of each scene is calibrated as a user would
               (chessboard corners, table plane) and compared with the true
               camera: error in mm, p50 / p95 / max over a 90 cm table;
  detection    the disk and token detector (the one "tableref detect" and
               "tableref ui" use) on each photograph: disk F1, centre,
               radius and edge-to-edge distance errors (median / p95, mm),
               stacking-order accuracy, token F1, token-to-disk assignment,
               frames per second and ms per stage;
  HoughCircles OpenCV's bare HoughCircles (HOUGH_GRADIENT_ALT after a
               median blur, searching the detector's radii, 0.8 to 20 cm,
               in pixels through the scene's calibration) timed on the
               same frames in the same run, the ratio of the detector's
               time to it, and its disk F1 by the same criterion and
               matching (centre within half the radius).

Then the real photographs of the circle data set (shared/realdata/
circle-dataset-mini, found in the working directory or a folder above it,
or given with --realdata): the detector and HoughCircles with the data
set's README parameters, scored against the outer circles of the ground
truth at an area IoU of at least 0.8 (precision, recall, F per image and
overall, and overall against every annotated circle, as the data set's
own baselines are scored). sb and speaker are left out: their ground
truth does not line up with the stored images (FORMAT.md). When the data
set is not found, the report says so.

The detector is warmed on a blank frame before each scene (it builds its
rectification maps on the first frame of a size, as a camera's first
frame would); frames per second count from the Go image, ms per stage
from the frame in OpenCV's form.

Options:
  --scenes N       scenes per tier (default 5)
  --seed S         seed of the first scene (default 1)
  --tiers LIST     comma-separated tiers (default easy,medium,hard)
  --size WxH       frame size (default 1920x1080)
  --format F       text (default) or json
  --realdata DIR   the circle data set (default: found above the working directory)
  --no-realdata    skip the real photographs
  --no-detect      calibration only (no detector, no HoughCircles)
  --decoder D      how the rendered photographs' JPEGs are decoded: go
                   (default, Go's image/jpeg) or opencv (OpenCV's libjpeg,
                   as "tableref detect" reads files and cameras)
  --lamp DEG       light every scene from a lamp DEG degrees above the table
                   (5 to 90; default: each tier's light, 45 to 80): long
                   shadows, the exposure set as a camera's automatic one

Examples:
  tableref bench
  tableref bench --scenes 20 --format json > bench.json
  tableref bench --tiers hard --size 1280x720 --no-realdata
  tableref bench --scenes 8 --decoder opencv --no-realdata
  tableref bench --scenes 20 --lamp 30 --no-realdata
  tableref bench --scenes 1 --realdata ~/data/circle-dataset-mini
`,
		run: runBench,
	})
}

// benchFlags are the options of "tableref bench".
type benchFlags struct {
	cfg        bench.Config
	format     string
	realdata   string
	noRealdata bool
	noDetect   bool
}

func parseBenchFlags(args []string) (benchFlags, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	scenes := fs.Int("scenes", 5, "")
	seed := fs.Uint64("seed", 1, "")
	tiers := fs.String("tiers", "easy,medium,hard", "")
	size := fs.String("size", "1920x1080", "")
	var f benchFlags
	fs.StringVar(&f.format, "format", "text", "")
	fs.StringVar(&f.realdata, "realdata", "", "")
	fs.BoolVar(&f.noRealdata, "no-realdata", false, "")
	fs.BoolVar(&f.noDetect, "no-detect", false, "")
	decoder := fs.String("decoder", "go", "")
	lamp := fs.Float64("lamp", 0, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return f, err
	}
	lampErr := synth.CheckLamp(*lamp)
	switch {
	case len(pos) != 0:
		return f, usageError("bench takes no file argument")
	case *scenes < 1 || *scenes > 10000:
		return f, usageError("--scenes %d: want 1 to 10000", *scenes)
	case f.format != "text" && f.format != "json":
		return f, usageError("unknown format %q: use text or json", f.format)
	case f.realdata != "" && f.noRealdata:
		return f, usageError("--realdata and --no-realdata contradict each other")
	case lampErr != nil:
		return f, usageError("--lamp: %v", lampErr)
	}
	f.cfg = bench.Config{Scenes: *scenes, Seed: *seed, Decoder: *decoder, Lamp: *lamp}
	switch *decoder {
	case "go":
	case "opencv":
		f.cfg.Decode = opencvDecode
	default:
		return f, usageError("--decoder %q: use go or opencv", *decoder)
	}
	if f.cfg.Width, f.cfg.Height, err = parseSize(*size); err != nil {
		return f, usageError("--size: %v", err)
	}
	for _, name := range strings.Split(*tiers, ",") {
		t, err := synth.ParseTier(strings.TrimSpace(name))
		if err != nil {
			return f, usageError("--tiers: %v", err)
		}
		f.cfg.Tiers = append(f.cfg.Tiers, t)
	}
	return f, nil
}

// benchOutput is the whole report: the harness's, the HoughCircles
// baseline and the real photographs (JSON: the harness's fields, then
// "hough_baseline" and "real_photographs").
type benchOutput struct {
	bench.Report
	Hough *HoughReport `json:"hough_baseline,omitempty"`
	Real  *RealReport  `json:"real_photographs,omitempty"`
}

func runBench(args []string, e *env) error {
	f, err := parseBenchFlags(args)
	if err != nil {
		return err
	}
	cfg := f.cfg
	var hough *houghBaseline
	if !f.noDetect {
		hough = newHoughBaseline(cfg)
		cfg.Detector = newVisionBench(hough.seen)
	}
	bar := newProgress(e.stderr, cfg.Scenes*len(cfg.Tiers))
	done := 0
	cfg.Progress = func(t synth.Tier, k, n int) {
		if hough != nil {
			hough.progress(t, k)
		}
		bar.show(done, fmt.Sprintf("%s %d/%d", t, k+1, n))
		done++
	}
	rep, err := bench.Run(cfg)
	bar.show(done, "")
	bar.done()
	if err != nil {
		return err
	}
	out := benchOutput{Report: rep}
	if hough != nil {
		if out.Hough = hough.report(); hough.err != nil {
			return fmt.Errorf("bench: HoughCircles baseline: %w", hough.err)
		}
	}
	if out.Real, err = realDataReport(f); err != nil {
		return err
	}
	if f.format == "json" {
		return writeJSON(e.stdout, out)
	}
	return out.writeText(e.stdout)
}

// realDataReport runs the real photographs, or says why not.
func realDataReport(f benchFlags) (*RealReport, error) {
	if f.noRealdata {
		return nil, nil
	}
	dir := f.realdata
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		var ok bool
		if dir, ok = findRealData(wd); !ok {
			return realNotFound(fmt.Sprintf("not measured: %s was not found in %s or any folder above it; give --realdata DIR", realDataRel, wd)), nil
		}
	}
	return runRealData(dir)
}

// writeText writes the report for people.
func (o benchOutput) writeText(w io.Writer) error {
	if err := o.Report.WriteText(w); err != nil {
		return err
	}
	var b strings.Builder
	if h := o.Hough; h != nil && len(h.Tiers) > 0 {
		fmt.Fprintf(&b, "\nBare OpenCV on the same frames: %s\n", h.Method)
		fmt.Fprintf(&b, "%-8s %7s %12s %12s %10s %10s %12s\n", "tier", "frames", "detector ms", "Hough ms", "det/Hough", "Hough F1", "radii px")
		for _, t := range h.Tiers {
			fmt.Fprintf(&b, "%-8s %7d %12s %12s %9sx %10s %12s\n", t.Tier, t.Frames, t.DetectorMS, t.HoughMS, t.Ratio, t.HoughF1,
				fmt.Sprintf("%d-%d", t.MinRadiusPx, t.MaxRadiusPx))
		}
	}
	if r := o.Real; r != nil {
		writeRealText(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRealText(b *strings.Builder, r *RealReport) {
	if !r.Found {
		fmt.Fprintf(b, "\nReal photographs: %s\n", r.Note)
		return
	}
	fmt.Fprintf(b, "\nReal photographs (%s), outer circles, area IoU >= %g; %s left out:\n", r.Dir, r.MinIoU, strings.Join(r.Excluded, ", "))
	fmt.Fprintf(b, "%-16s | %-32s | %-32s\n", "", "detector", "HoughCircles")
	fmt.Fprintf(b, "%-10s %5s | %4s %5s %5s %5s %9s | %4s %5s %5s %5s %9s\n", "image", "truth",
		"det", "P", "R", "F", "time", "det", "P", "R", "F", "time")
	row := func(name string, truth int, d, h CircleScore) {
		fmt.Fprintf(b, "%-10s %5d | %4d %5s %5s %5s %6s ms | %4d %5s %5s %5s %6s ms\n", name, truth,
			d.Detected, d.Precision, d.Recall, d.F, d.MS, h.Detected, h.Precision, h.Recall, h.F, h.MS)
	}
	truth := 0
	for _, im := range r.Images {
		row(im.Name, im.Truth, im.Detector, im.Hough)
		truth += im.Truth
	}
	row("overall", truth, r.Detector, r.Hough)
	row("all rings", r.AllTruth, r.DetectorAll, r.HoughAll)
	fmt.Fprintf(b, "(%s; ms: per image; all rings: the same detections against every annotated circle, inner rings included, as FORMAT.md's baselines are scored)\n", r.Method)
}
