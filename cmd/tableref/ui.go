package main

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"tableref/engine/rulesets"
	"tableref/models"
	"tableref/ui"
)

// demoSequence is the short game the desktop program plays when no camera
// and no file is given: deployment, a move, a volley, a melee, one layout
// a line.
//
//go:embed demo/sequence.jsonl
var demoSequence []byte

func init() {
	register(&command{
		name:    "ui",
		summary: "open the desktop referee: the table live, ranges, engagements, damage",
		usage: `Usage: tableref ui [options] [LAYOUT.json | GAME.jsonl]

Opens the referee window. On the left, the table with its overlays: disk
outlines in their owner's colour, names, engagement arrows (attacker to
defender), embattled disks ringed in orange, projectiles ringed in red with
a line to each disk they hit, damage (red) and wound (purple) counters.
Click a disk to see its range rings and the edge-to-edge distance to every
other disk (a distance within the measurement uncertainty of a ring is
marked "too close to call"). On the right: the rulings in resolution order
with their step log, the damage tracker (nothing enters it until you press
Confirm), the activation tracker, the correction form (fix a name, an
owner, the stacking order, a token's kind; delete a phantom; add a missed
disk) and the calibration wizard.

With no file, the window plays a short demo game built into the program.
A .json file is one layout (a snapshot); a .jsonl file is a game recorded
as layouts, one a line, played in order. Corrections are kept for the game
in a file next to it (GAME.corrections.json) unless --corrections says
otherwise.

Options:
  --rules NAME          the rules (default diskwars when built in, else geometry):
                        ` + strings.Join(rulesets.Names(), ", ") + `
  --corrections PATH    the corrections file of this game
  --army FILE           load an army list (repeat for each player)
  --uncertainty CM      measurement uncertainty of a distance (default 0.2)
  --interval SECONDS    how long each layout of a game is shown (default 3)
  --select ID           select this disk at start (its ranges are shown)
  --camera N            read camera N (needs the vision package)
  --screenshot PNG      save the window to PNG after --after seconds and quit
  --after SECONDS       when to take the screenshot (default 5)

Examples:
  tableref ui
  tableref ui --rules diskwars game.jsonl
  tableref ui --army alice.json --army bob.json table.json
  xvfb-run -a tableref ui --select archers --screenshot shot.png
`,
		run: runUI,
	})
}

// uiFlags are the options of "tableref ui".
type uiFlags struct {
	rules, corrections, selectID, screenshot string
	armies                                   listFlag
	uncertainty, interval, after             float64
	camera                                   int
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func parseUIFlags(args []string) (uiFlags, []string, error) {
	f := uiFlags{camera: -1}
	fs := flag.NewFlagSet("ui", flag.ContinueOnError)
	fs.StringVar(&f.rules, "rules", "", "")
	fs.StringVar(&f.corrections, "corrections", "", "")
	fs.StringVar(&f.selectID, "select", "", "")
	fs.StringVar(&f.screenshot, "screenshot", "", "")
	fs.Var(&f.armies, "army", "")
	fs.Float64Var(&f.uncertainty, "uncertainty", float64(ui.DefaultUncertainty), "")
	fs.Float64Var(&f.interval, "interval", 3, "")
	fs.Float64Var(&f.after, "after", 5, "")
	fs.IntVar(&f.camera, "camera", -1, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return f, nil, err
	}
	switch {
	case len(pos) > 1:
		return f, nil, usageError("give at most one layout or game file, got %d", len(pos))
	case f.uncertainty < 0 || f.uncertainty > 10:
		return f, nil, usageError("--uncertainty %g: give a number of cm between 0 and 10", f.uncertainty)
	case f.interval <= 0 || f.after <= 0:
		return f, nil, usageError("--interval and --after must be positive")
	}
	if f.rules == "" {
		f.rules = defaultUIRules()
	}
	if _, err := rulesets.Lookup(f.rules); err != nil {
		return f, nil, usageError("%v", err)
	}
	return f, pos, nil
}

// defaultUIRules is diskwars when that ruleset is built in, else geometry.
func defaultUIRules() string {
	if rs, err := rulesets.Lookup("diskwars"); err == nil && rs != nil {
		return "diskwars"
	}
	return rulesets.Geometry
}

func runUI(args []string, e *env) error {
	f, pos, err := parseUIFlags(args)
	if err != nil {
		return err
	}
	if f.camera >= 0 {
		return fmt.Errorf("camera %d: this build has no camera support yet (the vision package is not wired in); open a layout file or the demo", f.camera)
	}
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no display found (DISPLAY and WAYLAND_DISPLAY are empty): run it on a desktop, under xvfb-run, or use \"tableref demo\" for the demo table as text")
	}
	src, session, err := uiSource(pos, time.Duration(f.interval*float64(time.Second)))
	if err != nil {
		return err
	}
	opts := ui.Options{Title: "tableref: " + session.title, Rules: f.rules, Uncertainty: models.Centimetres(f.uncertainty)}
	opts.CorrectionsPath = f.corrections
	if opts.CorrectionsPath == "" {
		opts.CorrectionsPath = session.corrections
	}
	for _, path := range f.armies {
		a, err := ui.LoadArmyList(path)
		if err != nil {
			return err
		}
		opts.ArmyLists = append(opts.ArmyLists, a)
	}
	a := app.NewWithID("org.tableref.referee")
	u, err := ui.New(a, opts)
	if err != nil {
		return err
	}
	if f.selectID != "" {
		u.Select(f.selectID)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u.Run(ctx, src)
	var shotErr error
	if f.screenshot != "" {
		go func() {
			time.Sleep(time.Duration(f.after * float64(time.Second)))
			fyne.Do(func() {
				shotErr = saveCapture(u.Window, f.screenshot)
				a.Quit()
			})
		}()
	}
	u.Window.ShowAndRun()
	if shotErr == nil && f.screenshot != "" {
		fmt.Fprintf(e.stdout, "saved the window to %s\n", f.screenshot)
	}
	return shotErr
}

// uiSession says what is being played: its title and the corrections
// file that goes with it ("" for the demo: kept in memory).
type uiSession struct{ title, corrections string }

// uiSource opens the frame source: the demo game, a layout file or a game
// recorded as JSON Lines.
func uiSource(pos []string, interval time.Duration) (ui.FrameSource, uiSession, error) {
	if len(pos) == 0 {
		ls, err := readLayoutLines(bytes.NewReader(demoSequence), "demo game")
		if err != nil {
			return nil, uiSession{}, err
		}
		return &ui.LayoutSource{Layouts: ls, Interval: interval, Loop: true}, uiSession{title: "demo game"}, nil
	}
	path := pos[0]
	ext := strings.ToLower(filepath.Ext(path))
	session := uiSession{title: filepath.Base(path), corrections: strings.TrimSuffix(path, filepath.Ext(path)) + ".corrections.json"}
	switch ext {
	case ".png", ".jpg", ".jpeg", ".bmp", ".mp4", ".avi", ".mkv", ".webm":
		return nil, uiSession{}, fmt.Errorf("%s: reading images and videos needs the vision package, which this build does not wire in yet; give a layout file (.json) or a game (.jsonl)", path)
	case ".jsonl", ".ndjson":
		file, err := os.Open(path)
		if err != nil {
			return nil, uiSession{}, err
		}
		defer file.Close()
		ls, err := readLayoutLines(file, path)
		if err != nil {
			return nil, uiSession{}, err
		}
		return &ui.LayoutSource{Layouts: ls, Interval: interval}, session, nil
	}
	l, err := models.Load(path)
	if err != nil {
		return nil, uiSession{}, err
	}
	return &ui.LayoutSource{Layouts: []models.Layout{l}}, session, nil
}

// readLayoutLines reads a game recorded as JSON Lines: one layout a line,
// blank lines skipped. An error names the line.
func readLayoutLines(r io.Reader, name string) ([]models.Layout, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	var out []models.Layout
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		l, err := models.Parse(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no layout in it", name)
	}
	return out, nil
}

// saveCapture writes what the window shows to a PNG file. UI goroutine.
func saveCapture(w fyne.Window, path string) error {
	img := w.Canvas().Capture()
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(file, img); err != nil {
		file.Close()
		return fmt.Errorf("screenshot %s: %w", path, err)
	}
	return file.Close()
}
