package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision"
	"tableref/vision/synth"
	"tableref/vision/track"
)

func TestBenchHasATrackingSubcommand(t *testing.T) {
	code, out, _ := runCLI(t, "", "help", "bench")
	if code != 0 || !strings.Contains(out, "tableref bench tracking") {
		t.Errorf("tableref help bench: got exit %d, want 0 and the tracking subcommand in:\n%s", code, out)
	}
	code, _, errOut := runCLI(t, "", "bench", "tracking", "--minutes", "0")
	if code != 2 || !strings.Contains(errOut, "--minutes") {
		t.Errorf("bench tracking --minutes 0: got exit %d and %q, want 2 and a word on --minutes", code, errOut)
	}
}

func TestTrackBadCommandLines(t *testing.T) {
	cases := [][]string{
		{"track"},
		{"track", "a", "b"},
		{"track", "--settle", "0", "x"},
		{"track", "photo.jpg"}, // one image: detect's work
	}
	for _, args := range cases {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: got exit %d, want 2", args, code)
		}
	}
	if code, _, _ := runCLI(t, "", "track", filepath.Join(t.TempDir(), "missing")); code != 1 {
		t.Errorf("a missing folder: got exit %d, want 1", code)
	}
	// A names file with no disk (here a bare layout) names nothing: it is
	// refused before any frame is read.
	dir := t.TempDir()
	names := filepath.Join(dir, "names.json")
	if err := os.WriteFile(names, []byte(`{"version": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "", "track", "--names", names, dir); code != 1 || !strings.Contains(stderr, "holds no disk") {
		t.Errorf("a names file with no disk: got exit %d, %q; want exit 1 saying it holds no disk", code, stderr)
	}
}

// TestTrackPrintsSettledLayouts renders a few seconds of a game into a
// folder and tracks it: every line is a layout with a "tracking" field,
// printed only for frames where the table was at rest.
func TestTrackPrintsSettledLayouts(t *testing.T) {
	dir, moving := renderGame(t)
	code, out, errOut := runCLI(t, "", "track", "--settle", "10", dir)
	if code != 0 {
		t.Fatalf("got exit %d: %s", code, errOut)
	}
	layouts := layoutLines(t, out)
	for i, l := range layouts {
		var tr trackLine
		if ok, err := l.Option("tracking", &tr); !ok || err != nil {
			t.Fatalf("line %d: no tracking field (%v)", i+1, err)
		}
		if moving[tr.Frame] {
			t.Errorf("line %d: a layout of frame %d, while the table moved", i+1, tr.Frame)
		}
	}
	if len(layouts) == 0 {
		t.Errorf("got no layout from %d frames: %s", len(moving), errOut)
	}
}

// renderGame renders a few seconds of a game into a folder of frames and
// returns it, with which frames show the table moving.
func renderGame(t *testing.T) (string, map[int]bool) {
	t.Helper()
	dir := t.TempDir()
	game, err := synth.NewGame(2, synth.GameOptions{Width: 640, Height: 360, Minutes: 0.08, Bumps: -1})
	if err != nil {
		t.Fatal(err)
	}
	moving := map[int]bool{}
	for {
		f, ok := game.Next()
		if !ok {
			break
		}
		moving[f.Index] = f.Moving
		fh, err := os.Create(filepath.Join(dir, fmt.Sprintf("f%04d.png", f.Index)))
		if err != nil {
			t.Fatal(err)
		}
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(fh, f.Image); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	return dir, moving
}

// TestTrackNamesGiveEveryDiskItsOwnID names the disks of a tracked game
// with a roster whose ids the tracker or the detector also hands out:
// the id of another tracked disk, a token's id, and, for a reserve not on
// the table, the id the next new disk would get. Every line must still
// load (analyze reads it), the reserve is told of once, and the run
// succeeds.
func TestTrackNamesGiveEveryDiskItsOwnID(t *testing.T) {
	dir, _ := renderGame(t)
	code, out, errOut := runCLI(t, "", "track", "--settle", "10", dir)
	if code != 0 {
		t.Fatalf("without names: got exit %d: %s", code, errOut)
	}
	plain := layoutLines(t, out)
	if len(plain) == 0 || len(plain[0].Disks) < 2 {
		t.Fatalf("without names: got %d layouts, want a first one of at least two disks", len(plain))
	}
	first := plain[0]
	a, b := first.Disks[0], first.Disks[1]
	nextID := fmt.Sprintf("n%d", len(first.Disks)+1)
	roster := models.Layout{Version: 1, Disks: []models.Disk{
		{ID: b.ID, Name: "Orc Warband", X: a.X, Y: a.Y, R: a.R},
		{ID: "t1", Name: "Troll", X: b.X, Y: b.Y, R: b.R},
		{ID: nextID, Name: "Reserve Knights", X: -300, Y: -300, R: a.R},
	}}
	names := filepath.Join(t.TempDir(), "army.json")
	if err := models.Save(names, roster); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, "", "track", "--settle", "10", "--names", names, dir)
	if code != 0 {
		t.Fatalf("with names: got exit %d: %s", code, errOut)
	}
	if n := strings.Count(errOut, "Reserve Knights"); n != 1 {
		t.Errorf("the reserve not on the table: told of %d times, want once, in:\n%s", n, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, l := range layoutLines(t, out) {
		for _, want := range []struct{ id, name string }{{b.ID, "Orc Warband"}, {"t1", "Troll"}} {
			if d, ok := l.Disk(want.id); !ok || d.Name != want.name {
				t.Errorf("line %d: disk %s: got %+v (found %v), want %s", i+1, want.id, d, ok, want.name)
			}
		}
		if _, ok := l.Disk(nextID); ok {
			t.Errorf("line %d: a disk holds %s, the id of the reserve not on the table", i+1, nextID)
		}
		if code, _, errOut := runCLI(t, lines[i], "analyze", "-"); code != 0 {
			t.Errorf("line %d: analyze refuses it: %s", i+1, errOut)
		}
	}
}

// TestTrackRefusesToPrintALayoutWithARepeatedID: a line analyze would
// refuse is never printed; the run stops with an error instead.
func TestTrackRefusesToPrintALayoutWithARepeatedID(t *testing.T) {
	cases := []struct {
		name   string
		layout models.Layout
		ok     bool
	}{
		{"distinct ids", models.Layout{Version: 1, Disks: []models.Disk{{ID: "n1", R: 1}}, Tokens: []models.Token{{ID: "t1", R: 1}}}, true},
		{"two disks n1", models.Layout{Version: 1, Disks: []models.Disk{{ID: "n1", R: 1}, {ID: "n1", X: 5, R: 1}}}, false},
		{"a disk and a token t1", models.Layout{Version: 1, Disks: []models.Disk{{ID: "t1", R: 1}}, Tokens: []models.Token{{ID: "t1", R: 1}}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			err := writeRuling(json.NewEncoder(&out), "game", &track.Ruling{Frame: 7, Layout: c.layout})
			if c.ok != (err == nil) || c.ok != (out.Len() > 0) {
				t.Errorf("got error %v and %d bytes printed, want ok %v", err, out.Len(), c.ok)
			}
		})
	}
}

// newTestPipeline is track's pipeline over a detector of cal (nil: none).
func newTestPipeline(t *testing.T, cal *calibration.Calibration) *track.Pipeline {
	t.Helper()
	det := vision.NewDetector(vision.Options{Calibration: cal})
	t.Cleanup(func() { det.Close() })
	return track.NewPipeline(trackDetector{det}, track.PipelineOptions{Gate: track.GateOptions{SettleFrames: 2}, Tracker: track.Options{Calibration: cal}})
}

// track counts the frames of another size than the calibration's (or,
// without one, than the first frame's) as skipped, says why, and fails
// when no frame was usable.
func TestTrackSkipsFramesOfTheWrongSize(t *testing.T) {
	scene := synthScene(t, t.TempDir(), "7", "640x360")
	cal := strings.TrimSuffix(scene, ".jpg") + "-camera.json"
	good, small := [2]int{640, 360}, [2]int{320, 180}
	cases := []struct {
		name   string
		cal    bool
		frames [][2]int
		code   int
		want   []string
	}{
		{"calibrated, one small frame", true, [][2]int{good, good, small, good}, 0,
			[]string{"f03.png: bad frame: calibration does not match: the calibration is for 640x360 frames, this frame is 320x180", ": 3 frames, 1 skipped (last: "}},
		{"calibrated, only small frames", true, [][2]int{small, small, small}, 1,
			[]string{"skipped 2 more frames for the same reason", ": 0 frames, 3 skipped (last: ", "no frame could be read"}},
		{"no calibration, a frame of another size than the first", false, [][2]int{good, small, good}, 0,
			[]string{"f02.png: bad frame: this frame is 320x180, the first was 640x360", ": 2 frames, 1 skipped (last: "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeGreyFrames(t, dir, c.frames...)
			args := []string{"track", "--settle", "1", dir}
			if c.cal {
				args = append([]string{"track", "--calibration", cal}, args[1:]...)
			}
			code, _, stderr := runCLI(t, "", args...)
			if code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// The camera unplugged: track prints its summary, then the error.
func TestTrackPrintsItsSummaryWhenTheCameraIsGone(t *testing.T) {
	src := &fakeFrames{kind: vision.KindCamera, w: 160, h: 120, limit: 100, at: func(i int) error {
		if i == 3 {
			return fmt.Errorf("camera:5: %w (unplugged?)", vision.ErrSourceGone)
		}
		return nil
	}}
	var out, errb bytes.Buffer
	err := trackFrames(context.Background(), src, newTestPipeline(t, nil), nil, nil, 0, &env{stdout: &out, stderr: &errb})
	if !errors.Is(err, vision.ErrSourceGone) || !strings.Contains(errb.String(), "camera:5: 3 frames, 0 skipped") {
		t.Errorf("got %v and %q; want ErrSourceGone after a summary of 3 frames", err, errb.String())
	}
}

// Ctrl-C: track reads no frame after it, prints its summary and ends
// with exit 130 (errInterrupted).
func TestTrackStopsOnInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &fakeFrames{kind: vision.KindCamera, w: 160, h: 120, limit: 100, at: func(i int) error {
		if i == 3 {
			cancel()
		}
		return nil
	}}
	var out, errb bytes.Buffer
	err := trackFrames(ctx, src, newTestPipeline(t, nil), nil, nil, 0, &env{stdout: &out, stderr: &errb})
	if !errors.Is(err, errInterrupted) || src.read != 4 || !strings.Contains(errb.String(), "camera:5: 4 frames, 0 skipped") {
		t.Errorf("got %v after %d frames read, stderr %q; want errInterrupted after 4 and their summary", err, src.read, errb.String())
	}
	layoutLines(t, out.String()) // every line printed is whole
}
