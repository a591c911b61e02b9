package main

import (
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision/synth"
)

func init() {
	register(&command{
		name:    "synth",
		summary: "render synthetic table photographs with their ground truth",
		usage: `Usage: tableref synth --out DIR [--seed N] [--count K] [--tier easy|medium|hard] [--size WxH]

Renders photographs of made-up Diskwars tables, the same for the same seed:
a camera 60 to 120 cm above the table, tilted up to 35 degrees, cardboard
disks of every Diskwars size with printed art and coloured rims, stacked up
to three high, tokens dropped on and between them, shadows, uneven light,
noise, blur and JPEG. For each scene K (seeds N, N+1, ...) it writes:

  TIER-SEED.jpg          the photograph
  TIER-SEED-board.png    the calibration board (9x6 inner corners, 30 mm)
                         lying on the empty table, seen by the same camera
  TIER-SEED-layout.json  the ground truth, a layout file (version 1)
  TIER-SEED-camera.json  the exact calibration of the camera

Use them to try "tableref calibrate --lens TIER-SEED-camera.json --plane
TIER-SEED-board.png" and the detector.

Options:
  --out DIR     where to write (created if missing; required)
  --seed N      seed of the first scene (default 1)
  --count K     number of scenes (default 1)
  --tier T      easy, medium (default) or hard
  --disks N     lay N disks instead of the tier's number (up to 200)
  --size WxH    frame size (default 1920x1080)
  --lamp DEG    light from a lamp DEG degrees above the table (5 to 90;
                default: the tier's light, 45 to 80): long shadows

Examples:
  tableref synth --seed 1 --count 10 --out scenes
  tableref synth --seed 42 --tier hard --size 1280x720 --out /tmp/hard
  tableref synth --seed 7 --tier hard --lamp 30 --out /tmp/lamp
`,
		run: runSynth,
	})
}

func runSynth(args []string, e *env) error {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	out := fs.String("out", "", "")
	seed := fs.Uint64("seed", 1, "")
	count := fs.Int("count", 1, "")
	tierName := fs.String("tier", string(synth.Medium), "")
	size := fs.String("size", "1920x1080", "")
	disks := fs.Int("disks", 0, "")
	lamp := fs.Float64("lamp", 0, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("synth takes no file argument: use --out DIR")
	}
	if *out == "" {
		return usageError("--out DIR is required")
	}
	if *count < 1 || *count > 100000 {
		return usageError("--count %d: want 1 to 100000", *count)
	}
	tier, err := synth.ParseTier(*tierName)
	if err != nil {
		return usageError("%v", err)
	}
	w, h, err := parseSize(*size)
	if err != nil {
		return usageError("--size: %v", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", *out, err)
	}
	bar := newProgress(e.stderr, *count)
	defer bar.done()
	for k := range *count {
		s := *seed + uint64(k)
		bar.show(k, fmt.Sprintf("seed %d", s))
		sc, err := synth.Generate(s, tier, synth.Options{Width: w, Height: h, Disks: *disks, Lamp: *lamp})
		if err != nil {
			return usageError("%v", err)
		}
		if err := writeScene(sc, filepath.Join(*out, fmt.Sprintf("%s-%d", tier, s))); err != nil {
			return err
		}
	}
	bar.show(*count, "")
	return nil
}

func writeScene(sc *synth.Scene, base string) error {
	photo, err := sc.JPEG()
	if err != nil {
		return err
	}
	if err := os.WriteFile(base+".jpg", photo, 0o644); err != nil {
		return fmt.Errorf("writing the photograph: %w", err)
	}
	f, err := os.Create(base + "-board.png")
	if err != nil {
		return fmt.Errorf("writing the board view: %w", err)
	}
	if err := png.Encode(f, sc.RenderBoard()); err != nil {
		f.Close()
		return fmt.Errorf("writing the board view: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the board view: %w", err)
	}
	truth := sc.Truth
	truth.Source = filepath.Base(base) + ".jpg (" + truth.Source + ")"
	if err := models.Save(base+"-layout.json", truth); err != nil {
		return err
	}
	cal, err := sc.TrueCalibration()
	if err != nil {
		return fmt.Errorf("the scene's camera: %w", err)
	}
	return calibration.Save(base+"-camera.json", cal)
}
