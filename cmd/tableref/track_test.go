package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/vision/synth"
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
		t.Errorf("got no layout from %d frames: %s", game.Len(), errOut)
	}
}
