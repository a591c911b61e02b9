package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/calibration"
	"tableref/models"
)

func TestSynthWritesScenesWithTruth(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "synth", "--seed", "7", "--count", "2", "--tier", "easy", "--size", "640x360", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, seed := range []string{"7", "8"} {
		base := filepath.Join(dir, "easy-"+seed)
		for _, suffix := range []string{".jpg", "-board.png"} {
			if st, err := os.Stat(base + suffix); err != nil || st.Size() == 0 {
				t.Errorf("%s%s: %v", base, suffix, err)
			}
		}
		l, err := models.Load(base + "-layout.json")
		if err != nil || len(l.Disks) == 0 {
			t.Errorf("layout: %v, %d disks", err, len(l.Disks))
		}
		if _, err := calibration.Load(base + "-camera.json"); err != nil {
			t.Errorf("camera: %v", err)
		}
	}
}

func TestSynthAndBenchBadInput(t *testing.T) {
	cases := [][]string{
		{"synth", "--seed", "1"},
		{"synth", "--out", t.TempDir(), "--tier", "impossible"},
		{"synth", "--out", t.TempDir(), "--size", "big"},
		{"synth", "--out", t.TempDir(), "--count", "0"},
		{"bench", "--tiers", "easy,nightmare"},
		{"bench", "--scenes", "0"},
		{"bench", "--format", "xml"},
		{"bench", "--decoder", "png"},
	}
	for _, args := range cases {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: got exit %d, want 2", args, code)
		}
	}
}

func TestBenchReportsCalibration(t *testing.T) {
	code, out, stderr := runCLI(t, "", "bench", "--scenes", "1", "--tiers", "easy", "--size", "640x360", "--no-detect", "--no-realdata")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "calib p95") || !strings.Contains(out, "Detection: not measured yet") {
		t.Errorf("got:\n%s", out)
	}
}
