package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"tableref/vision/board9"
	"tableref/vision/synth"
)

func init() {
	addBattle9Action("bench", `
  bench [--cases N] [--seed S] [--tiers LIST] [--size WxH] [--format text|json]
                           measure the board reading on rendered boards: for
                           each case, a random game from one of three openings,
                           a board seen from a random side, the frame before
                           (its colours and side learned) and after a legal
                           move (or, one case in four, an illegal change);
                           square accuracy, move accuracy, illegal changes
                           flagged, per tier (default 20 cases per tier,
                           1280x720, seed 1)
Example:
  tableref battle9 bench --cases 50 --format json > battle9-bench.json
`, runBattle9Bench)
}

func runBattle9Bench(args []string, e *env) error {
	fs := flag.NewFlagSet("battle9 bench", flag.ContinueOnError)
	cfg := board9.BenchConfig{}
	fs.IntVar(&cfg.Cases, "cases", 20, "")
	seed := fs.Uint64("seed", 1, "")
	tiers := fs.String("tiers", "easy,medium,hard", "")
	size := fs.String("size", "1280x720", "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("bench takes no arguments, got %q", pos)
	}
	if cfg.Cases < 1 || cfg.Cases > 10000 {
		return usageError("--cases %d: give 1 to 10000", cfg.Cases)
	}
	if *format != "text" && *format != "json" {
		return usageError("--format %q: text or json", *format)
	}
	if _, err := fmt.Sscanf(*size, "%dx%d", &cfg.Width, &cfg.Height); err != nil || cfg.Width < 160 || cfg.Height < 120 || cfg.Width > 8192 || cfg.Height > 8192 {
		return usageError("--size %q: give WIDTHxHEIGHT, 160x120 to 8192x8192", *size)
	}
	for _, name := range strings.Split(*tiers, ",") {
		t, err := synth.ParseTier(strings.TrimSpace(name))
		if err != nil {
			return usageError("--tiers: %v", err)
		}
		cfg.Tiers = append(cfg.Tiers, t)
	}
	cfg.Seed = *seed
	figs, err := board9.Measure(cfg)
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeBenchJSON(e.stdout, cfg, figs)
	}
	writeBenchTable(e.stdout, cfg, figs)
	return nil
}

func writeBenchJSON(w io.Writer, cfg board9.BenchConfig, figs []board9.Figures) error {
	type row struct {
		board9.Figures
		SquareAccuracy       float64 `json:"square_accuracy"`
		UnsupervisedAccuracy float64 `json:"unsupervised_accuracy"`
		MoveAccuracy         float64 `json:"move_accuracy"`
		FlagRate             float64 `json:"illegal_flagged"`
	}
	out := struct {
		Cases  int    `json:"cases_per_tier"`
		Seed   uint64 `json:"seed"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
		Tiers  []row  `json:"tiers"`
	}{Cases: cfg.Cases, Seed: cfg.Seed, Width: cfg.Width, Height: cfg.Height}
	for _, f := range figs {
		out.Tiers = append(out.Tiers, row{f, f.SquareAccuracy(), f.UnsupervisedAccuracy(), f.MoveAccuracy(), f.FlagRate()})
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func writeBenchTable(w io.Writer, cfg board9.BenchConfig, figs []board9.Figures) {
	fmt.Fprintf(w, "9x9 board reading on rendered boards: %d cases per tier, %dx%d, seeds %d-%d\n\n",
		cfg.Cases, cfg.Width, cfg.Height, cfg.Seed, cfg.Seed+uint64(cfg.Cases)-1)
	fmt.Fprintf(w, "%-7s %6s %9s %22s %22s %16s %7s %7s %14s %8s %8s %9s\n",
		"tier", "cases", "boards", "squares", "unsupervised", "moves", "false", "wrong", "illegal", "overrul.", "grid px", "ms/frame")
	fmt.Fprintf(w, "%-7s %6s %9s %22s %22s %16s %7s %7s %14s %8s %8s %9s\n",
		"", "", "found", "right", "right", "right", "alarms", "moves", "flagged", "squares", "worst", "")
	for _, f := range figs {
		fmt.Fprintf(w, "%-7s %6d %9s %22s %22s %16s %7d %7d %14s %8d %8.2f %9.0f\n",
			f.Tier, f.Cases, fmt.Sprintf("%d/%d", f.Boards, 2*f.Cases),
			pct(f.SquaresRight, f.Squares), pct(f.UnsupervisedRight, f.Unsupervised), pct(f.MovesRight, f.Moves),
			f.FalseAlarms, f.WrongMoves, pct(f.Flagged, f.Illegal), f.Overruled, f.GridPx, f.MsPerFrame)
	}
	fmt.Fprint(w, `
squares: the after frame read with the colours learned from the before frame;
unsupervised: the before frame read with nothing learned (right up to which
colour is which army); moves: legal moves recovered exactly; false alarms:
legal moves flagged as illegal; wrong moves: another legal move taken;
illegal flagged: illegal changes flagged to the players; grid px: the worst
grid corner's distance from the truth, mean over frames.
`)
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%% %d/%d", 100*float64(a)/float64(b), a, b)
}
