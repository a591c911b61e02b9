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

	"tableref/calibration"
	"tableref/engine/rulesets"
	"tableref/models"
	"tableref/ui"
	"tableref/vision"

	// For its init, which runs before Fyne's: it keeps Fyne from logging
	// a locale error under LANG=C.UTF-8 (see its doc).
	_ "tableref/cmd/tableref/internal/localefix"
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
		usage: `Usage: tableref ui [options] [LAYOUT.json | GAME.jsonl | IMAGE | VIDEO | FOLDER]
       tableref ui [options] --camera N

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
disk), the calibration wizard and the campaign: gold per player with the
income by source, the history with undo of the last event, and "End turn",
which proposes the conquests and the income of the table shown for the
players to confirm (nothing is recorded before Confirm).

With no file, the window plays a short demo game built into the program.
A .json file is one layout (a snapshot); a .jsonl file is a game recorded
as layouts, one a line, played in order. Corrections are kept for the game
in a file next to it (GAME.corrections.json) unless --corrections says
otherwise.

With --camera N, a photograph, a video or a folder of photographs, the
disks and tokens are found by the detector ("tableref detect") in each
frame, in centimetres through the calibration (--calibration, or the one
"tableref calibrate" saved in your configuration folder). Without one,
positions are in pixels and the status line says so. A video is played at
30 frames a second; each photograph of a folder is shown for --interval
seconds. Frames that cannot be read are skipped and counted in the status
line; when the camera stops (unplugged), the window says so and keeps the
last frame. The Calibrate tab then captures the printed chessboard from
the live picture: at least 3 views at different angles for the lens (or
fewer to keep the lens of the calibration in use), the last one lying flat
on the table; Solve shows the RMS error and the uncertainty, and the
detector uses the result at once; Save writes it (to --calibration, or the
default path).

Options:
  --rules NAME          the rules (default diskwars when built in, else geometry):
                        ` + strings.Join(rulesets.Names(), ", ") + `
  --corrections PATH    the corrections file of this game
  --army FILE           load an army list (repeat for each player)
  --uncertainty CM      measurement uncertainty of a distance (default 0.2)
  --interval SECONDS    how long each layout of a game, or each photograph
                        of a folder, is shown (default 3)
  --select ID           select this disk at start (its ranges are shown)
  --camera N            read camera N
  --calibration FILE    the camera's calibration (default: the one saved by
                        "tableref calibrate" in your configuration folder,
                        when it exists); the wizard saves there too
  --board COLSxROWS     the wizard's chessboard, inner corners (default 9x6)
  --square-mm MM        the side of its squares (default 30, as "tableref board" prints)
  --campaign NAME       open the Campaign tab on this campaign (see "tableref
                        campaign"); --db PATH for another database file, or
                        --campaign FILE.db [--name NAME] for the file itself
                        (--db PATH alone: the only campaign of that file)
  --screenshot PNG      save the window to PNG after --after seconds and quit
  --after SECONDS       when to take the screenshot (default 5)

Examples:
  tableref ui
  tableref ui --rules diskwars game.jsonl
  tableref ui --army alice.json --army bob.json table.json
  tableref ui --camera 0 --calibration table.cal.json
  tableref ui --calibration scenes/medium-1-camera.json scenes/medium-1.jpg
  tableref ui --interval 5 photos/
  tableref ui --campaign war --camera 0
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
	calibration                              string
	board                                    calibration.Board
	campaign, campaignDB, campaignName       string
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
	fs.StringVar(&f.calibration, "calibration", "", "")
	fs.StringVar(&f.campaign, "campaign", "", "")
	fs.StringVar(&f.campaignDB, "db", "", "")
	fs.StringVar(&f.campaignName, "name", "", "")
	board := fs.String("board", "9x6", "")
	fs.Float64Var(&f.board.SquareMM, "square-mm", 30, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return f, nil, err
	}
	if f.board.Cols, f.board.Rows, err = parseSize(*board); err != nil {
		return f, nil, usageError("--board: %v", err)
	}
	if err := f.board.Validate(); err != nil {
		return f, nil, usageError("%v", err)
	}
	switch {
	case len(pos) > 1:
		return f, nil, usageError("give at most one file or folder, got %d", len(pos))
	case len(pos) == 1 && f.camera >= 0:
		return f, nil, usageError("give --camera N or a file, not both")
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

// needDisplay returns an error when no display is there to open a window
// on (Linux: DISPLAY and WAYLAND_DISPLAY empty), naming what to do
// instead (instead: a clause "use ..."): opening one there makes GLFW
// panic.
func needDisplay(instead string) error {
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("no display found (DISPLAY and WAYLAND_DISPLAY are empty): run it on a desktop, under xvfb-run, or %s", instead)
	}
	return nil
}

func runUI(args []string, e *env) error {
	f, pos, err := parseUIFlags(args)
	if err != nil {
		return err
	}
	if err := needDisplay(`use "tableref demo" for the demo table as text`); err != nil {
		return err
	}
	in, err := uiInput(f, pos)
	if err != nil {
		return err
	}
	defer in.close()
	src, session := in.src, in.session
	opts := ui.Options{Title: "tableref: " + session.title, Rules: f.rules, Uncertainty: models.Centimetres(f.uncertainty)}
	if in.calibrator != nil {
		opts.Calibrator = in.calibrator
	}
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
	if f.campaign != "" || f.campaignName != "" || f.campaignDB != "" {
		c, err := openUICampaign(f.campaign, f.campaignDB, f.campaignName)
		if err != nil {
			return err
		}
		defer c.Close()
		opts.Campaign = c
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
	// Stop the source and let it return before the camera is closed (in
	// in.close, deferred above): freeing a capture in the middle of a read
	// can crash.
	cancel()
	if !u.WaitSource(3 * time.Second) {
		fmt.Fprintln(e.stderr, "tableref ui: the frame source did not stop within 3 s; closing it anyway")
	}
	if shotErr == nil && f.screenshot != "" {
		fmt.Fprintf(e.stdout, "saved the window to %s\n", f.screenshot)
	}
	return shotErr
}

// uiSession says what is being played: its title and the corrections
// file that goes with it ("" for the demo: kept in memory).
type uiSession struct{ title, corrections string }

// uiInputs is what the window plays: a frame source, what it is, the
// calibration wizard's calibrator (nil for layouts) and what to close
// when the window is gone.
type uiInputs struct {
	src        ui.FrameSource
	session    uiSession
	calibrator ui.Calibrator
	close      func()
}

// uiInput opens what the command line names: a camera, an image, a video
// or a folder through the vision package; a layout, a game or the demo
// otherwise.
func uiInput(f uiFlags, pos []string) (uiInputs, error) {
	interval := time.Duration(f.interval * float64(time.Second))
	spec, kind, ok := visionSpec(f.camera, pos)
	if !ok {
		src, session, err := uiSource(pos, interval)
		return uiInputs{src: src, session: session, close: func() {}}, err
	}
	cal, calPath, err := uiCalibration(f.calibration)
	if err != nil {
		return uiInputs{}, err
	}
	vs, err := vision.Open(spec)
	if err != nil {
		return uiInputs{}, err
	}
	live := &liveState{cal: cal}
	src := newVisionSource(vs, kind, live)
	if kind == kindStills && len(pos) == 1 && !vision.IsImageFile(pos[0]) {
		src.Hold = interval // a folder: each photograph in turn
	}
	session := uiSession{title: vs.Name()}
	if len(pos) == 1 {
		session.corrections = strings.TrimSuffix(strings.TrimSuffix(pos[0], string(filepath.Separator)), filepath.Ext(pos[0])) + ".corrections.json"
	}
	if cal == nil {
		session.title += " (no calibration: pixels)"
	}
	return uiInputs{src: src, session: session, calibrator: newLiveCalibrator(live, f.board, calPath), close: func() { src.Close() }}, nil
}

// visionSpec says whether the command line names a vision source, and
// which: a camera, or a file that is not a layout (.json) or a game
// (.jsonl, .ndjson).
func visionSpec(camera int, pos []string) (string, sourceKind, bool) {
	if camera >= 0 {
		return fmt.Sprintf("camera:%d", camera), kindCamera, true
	}
	if len(pos) == 0 {
		return "", 0, false
	}
	path := pos[0]
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".jsonl", ".ndjson":
		return "", 0, false
	}
	if st, err := os.Stat(path); (err == nil && st.IsDir()) || vision.IsImageFile(path) {
		return path, kindStills, true
	}
	return path, kindVideo, true
}

// uiCalibration loads the calibration given, or the default one when it
// exists, and returns where the wizard saves: the file given, else the
// default path.
func uiCalibration(path string) (*calibration.Calibration, string, error) {
	if path != "" {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, path, nil // the wizard will write it
		}
		cal, err := calibration.Load(path)
		return cal, path, err
	}
	def, err := calibration.DefaultPath()
	if err != nil {
		return nil, "", err
	}
	if _, err := os.Stat(def); err != nil {
		return nil, def, nil
	}
	cal, err := calibration.Load(def)
	if err != nil {
		return nil, "", fmt.Errorf("the default calibration: %w (give --calibration FILE, or run tableref calibrate again)", err)
	}
	return cal, def, nil
}

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
