package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"tableref/vision/bench"
	"tableref/vision/synth"
	"tableref/vision/track"
)

const benchTrackingUsage = `
Tracking: tableref bench tracking [--minutes M] [--seed S] [--size WxH]
                                  [--fps N] [--tier T] [--settle N]
                                  [--same-faces] [--format text|json]

Renders a game (vision/synth sequences: disks moved by flips, volleys of
arrows, tokens swept away, casualties taken off, reinforcements, a hand
waved over the table, the camera knocked twice), runs "tableref track" on
every frame and scores it against the ground truth: identity switches per
1000 frames, rulings made on an unsettled table (must be 0), missed and
phantom rulings, frames from rest to ruling, hand recall, bumps
re-anchored, questions asked, centre error of the ruled disks. A ten-minute
game at 960x540 takes a few minutes.

  --minutes M    length of the game (default 10)
  --seed S       the game's seed (default 1)
  --size WxH     frame size (default 960x540)
  --fps N        frames a second (default 30)
  --tier T       easy (default), medium or hard
  --settle N     still frames before a ruling (default 15)
  --same-faces   both faces of a disk carry the same art
  --format F     text (default) or json

Examples:
  tableref bench tracking
  tableref bench tracking --minutes 2 --format json
`

// The tracking benchmark is a subcommand of bench: "tableref bench
// tracking". It wraps bench's command, which registers first (files are
// initialised in name order).
func init() {
	c, ok := commands["bench"]
	if !ok {
		panic("bench_track.go: the bench command is not registered yet")
	}
	plain := c.run
	c.usage += benchTrackingUsage
	c.run = func(args []string, e *env) error {
		if len(args) > 0 && args[0] == "tracking" {
			return runBenchTracking(args[1:], e)
		}
		return plain(args, e)
	}
}

func runBenchTracking(args []string, e *env) error {
	fs := flag.NewFlagSet("bench tracking", flag.ContinueOnError)
	minutes := fs.Float64("minutes", 10, "")
	seed := fs.Uint64("seed", 1, "")
	size := fs.String("size", "960x540", "")
	fps := fs.Int("fps", 30, "")
	tier := fs.String("tier", "easy", "")
	settle := fs.Int("settle", 15, "")
	same := fs.Bool("same-faces", false, "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return usageError("bench tracking takes no file argument")
	case *minutes <= 0 || *minutes > 120:
		return usageError("--minutes %g: want more than 0, at most 120", *minutes)
	case *fps < 1 || *fps > 240:
		return usageError("--fps %d: want 1 to 240", *fps)
	case *settle < 1 || *settle > 600:
		return usageError("--settle %d: want 1 to 600 frames", *settle)
	case *format != "text" && *format != "json":
		return usageError("unknown format %q: use text or json", *format)
	}
	cfg := bench.TrackingConfig{Seed: *seed, Minutes: *minutes, FPS: *fps, SameFaces: *same,
		Detector: newVisionBench(nil), Pipeline: track.PipelineOptions{Gate: track.GateOptions{SettleFrames: *settle}}}
	if cfg.Width, cfg.Height, err = parseSize(*size); err != nil {
		return usageError("--size: %v", err)
	}
	if cfg.Tier, err = synth.ParseTier(*tier); err != nil {
		return usageError("--tier: %v", err)
	}
	bar := newProgress(e.stderr, int(*minutes*60*float64(*fps)))
	cfg.Progress = func(f, n int) { bar.show(f, fmt.Sprintf("frame %d/%d", f, n)) }
	rep, err := bench.RunTracking(cfg)
	bar.done()
	if err != nil {
		return err
	}
	if *format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeTrackingText(e.stdout, rep)
}

// writeTrackingText prints the tracking figures for people.
func writeTrackingText(w io.Writer, r bench.TrackingReport) error {
	_, err := fmt.Fprintf(w, `Tracking: seed %d, %s tier, %dx%d at %d fps, %d frames (%.1f minutes)
  actions                 %v; camera bumps %d
  rulings                 %d (on an unsettled table: %d)
  rests needing a ruling  %d: missed %d (after %v), phantom rulings %d
  frames to settle        p50 %v, p95 %v, max %v
  identity switches       %d (%v per 1000 frames); disk rulings %d, with a wrong identity %d
  disks                   missed %d, phantom %d, kept while unseen %d; new disks named %d
  questions asked         %d (%v per 1000 frames); recalibrations asked %d
  centre error            p50 %v mm, p95 %v mm
  hand                    %d frames, recall %v; false hands at rest %d frames
  bumps re-anchored       %d of %d
  time                    pipeline %v ms/frame, %d reads at %v ms, render %v ms/frame, %v s in all
`, r.Seed, r.Tier, r.Width, r.Height, r.FPS, r.Frames, r.Minutes,
		r.Actions, r.Bumps,
		r.Rulings, r.UnsettledRuling,
		r.ExpectedRulings, r.MissedRulings, r.MissedAfter, r.PhantomRulings,
		r.SettleP50, r.SettleP95, r.SettleMax,
		r.IdentitySwitches, r.SwitchesPer1000, r.DiskRulings, r.WrongIdentities,
		r.MissedDisks, r.PhantomDisks, r.KeptUnseen, r.Namings,
		r.Questions, r.QuestionsPer1000, r.Recalibrations,
		r.CentreP50MM, r.CentreP95MM,
		r.HandFrames, r.HandSeen, r.FalseHandFrames,
		r.BumpsNoticed, r.Bumps,
		r.MSPerFrame, r.Reads, r.MSPerRead, r.RenderMS, r.WallSeconds)
	return err
}
