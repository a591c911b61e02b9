package main

import (
	"flag"
	"fmt"
	"strings"

	"tableref/vision/bench"
	"tableref/vision/synth"
)

func init() {
	register(&command{
		name:    "bench",
		summary: "measure calibration (and detection) on synthetic tables, tier by tier",
		usage: `Usage: tableref bench [--scenes N] [--seed S] [--tiers LIST] [--size WxH] [--format text|json]

Renders synthetic tables (see "tableref synth") and measures, for each
difficulty tier:

  calibration  the board view of each scene is calibrated as a user would
               (chessboard corners, table plane) and compared with the true
               camera: error in mm, p50 / p95 / max over a 90 cm table;
  detection    disk F1, centre, radius and edge-to-edge distance errors
               (median / p95, mm), stacking-order accuracy, token F1,
               token-to-disk assignment, frames per second and ms per
               stage. Not measured yet: no detector is plugged in.

Options:
  --scenes N     scenes per tier (default 5)
  --seed S       seed of the first scene (default 1)
  --tiers LIST   comma-separated tiers (default easy,medium,hard)
  --size WxH     frame size (default 1920x1080)
  --format F     text (default) or json

Examples:
  tableref bench
  tableref bench --scenes 20 --format json > bench.json
  tableref bench --tiers hard --size 1280x720
`,
		run: runBench,
	})
}

func runBench(args []string, e *env) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	scenes := fs.Int("scenes", 5, "")
	seed := fs.Uint64("seed", 1, "")
	tiers := fs.String("tiers", "easy,medium,hard", "")
	size := fs.String("size", "1920x1080", "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("bench takes no file argument")
	}
	if *scenes < 1 || *scenes > 10000 {
		return usageError("--scenes %d: want 1 to 10000", *scenes)
	}
	if *format != "text" && *format != "json" {
		return usageError("unknown format %q: use text or json", *format)
	}
	cfg := bench.Config{Scenes: *scenes, Seed: *seed}
	if cfg.Width, cfg.Height, err = parseSize(*size); err != nil {
		return usageError("--size: %v", err)
	}
	for _, name := range strings.Split(*tiers, ",") {
		t, err := synth.ParseTier(strings.TrimSpace(name))
		if err != nil {
			return usageError("--tiers: %v", err)
		}
		cfg.Tiers = append(cfg.Tiers, t)
	}
	bar := newProgress(e.stderr, *scenes*len(cfg.Tiers))
	done := 0
	cfg.Progress = func(t synth.Tier, k, n int) {
		bar.show(done, fmt.Sprintf("%s %d/%d", t, k+1, n))
		done++
	}
	rep, err := bench.Run(cfg)
	bar.show(done, "")
	bar.done()
	if err != nil {
		return err
	}
	if *format == "json" {
		return rep.WriteJSON(e.stdout)
	}
	return rep.WriteText(e.stdout)
}
