package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/models"
)

// synthScene writes one rendered easy table of the given size into dir
// with "tableref synth" and returns the path of its photograph (the truth
// and camera files lie beside it: base-layout.json, base-camera.json).
func synthScene(t *testing.T, dir, seed, size string) string {
	t.Helper()
	if code, _, stderr := runCLI(t, "", "synth", "--seed", seed, "--count", "1", "--tier", "easy", "--size", size, "--out", dir); code != 0 {
		t.Fatalf("synth: exit %d: %s", code, stderr)
	}
	return filepath.Join(dir, "easy-"+seed+".jpg")
}

// With the camera's calibration, detect prints one layout for a photograph:
// every disk of the truth at its place in centimetres, with its pixels.
func TestDetectPrintsTheLayoutOfAPhotograph(t *testing.T) {
	dir := t.TempDir()
	photo := synthScene(t, dir, "7", "1920x1080")
	base := strings.TrimSuffix(photo, ".jpg")
	code, out, stderr := runCLI(t, "", "detect", "--calibration", base+"-camera.json", photo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := models.Parse([]byte(out))
	if err != nil {
		t.Fatalf("the output is not a layout: %v\n%s", err, out)
	}
	truth, err := models.Load(base + "-layout.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Disks) != len(truth.Disks) {
		t.Errorf("got %d disks, the table holds %d", len(got.Disks), len(truth.Disks))
	}
	for _, td := range truth.Disks {
		found := false
		for _, gd := range got.Disks {
			if math.Hypot(float64(gd.X-td.X), float64(gd.Y-td.Y)) < 0.2 && math.Abs(float64(gd.R-td.R)) < 0.1 {
				found = true
				if gd.Pixel == nil || gd.Pixel.PR <= 0 {
					t.Errorf("disk at (%.1f, %.1f) cm has no pixels", gd.X, gd.Y)
				}
			}
		}
		if !found {
			t.Errorf("no disk found within 2 mm of %s at (%.1f, %.1f) cm, r %.2f", td.ID, td.X, td.Y, td.R)
			for _, gd := range got.Disks {
				t.Logf("  found %s at (%.2f, %.2f) r %.2f", gd.ID, gd.X, gd.Y, gd.R)
			}
		}
	}
	if strings.Contains(stderr, "warning") || !strings.Contains(stderr, "1 frames, 0 skipped") || !strings.Contains(stderr, "ms per frame: edges") {
		t.Errorf("summary: got %q, want 1 frame, none skipped, ms per stage, no warning", stderr)
	}
}

// A folder is a stream: a layout a line for each image that can be read,
// and the others (not an image, cut short, of another size than the
// calibration) counted and skipped with the reason, never a crash.
func TestDetectFolderSkipsBadFrames(t *testing.T) {
	scenes := t.TempDir()
	good := synthScene(t, scenes, "7", "640x360")
	other := synthScene(t, t.TempDir(), "8", "480x270")
	cal := strings.TrimSuffix(good, ".jpg") + "-camera.json"
	dir := t.TempDir()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	otherData, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"1-good.jpg":         data,
		"2-not-an-image.png": []byte("a shopping list"),
		"3-cut-short.jpg":    data[:len(data)/3],
		"4-other-size.jpg":   otherData,
		"5-good-again.jpg":   data,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runCLI(t, "", "detect", "--calibration", cal, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	layouts := layoutLines(t, out)
	for i, l := range layouts {
		if len(l.Disks) == 0 {
			t.Errorf("line %d: no disk", i+1)
		}
	}
	if len(layouts) != 2 {
		t.Errorf("got %d layouts, want 2 (the good images)", len(layouts))
	}
	// Each layout names the file it was read from (the spec's "file.png").
	for i, want := range []string{"1-good.jpg", "5-good-again.jpg"} {
		if i < len(layouts) && layouts[i].Source != filepath.Join(dir, want) {
			t.Errorf("layout %d: source %q, want %q", i+1, layouts[i].Source, filepath.Join(dir, want))
		}
	}
	for _, want := range []string{"skipped frame 1", "cannot be read as an image", "skipped frame 2", "cut short", "skipped frame 3: " + filepath.Join(dir, "4-other-size.jpg"), "480x270", "2 frames, 3 skipped"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// Bad command lines and unreadable inputs end with a clear message and a
// non-zero exit: 2 for a command line that cannot be run, 1 for input
// that cannot be read.
func TestDetectBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.png")
	if err := os.WriteFile(junk, []byte("not a picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	badCal := filepath.Join(dir, "bad.cal.json")
	if err := os.WriteFile(badCal, []byte(`{"version": 1, "lens": `), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"detect"}, 2, "give one image"},
		{[]string{"detect", junk, junk}, 2, "give one image"},
		{[]string{"detect", "--camera", "0", junk}, 2, "give one image"},
		{[]string{"detect", "--camera", "-1"}, 2, "cameras are numbered from 0"},
		{[]string{"detect", "--max-frames", "-1", junk}, 2, "--max-frames -1"},
		{[]string{"track", "--max-frames", "-3", junk}, 2, "--max-frames -3"},
		{[]string{"detect", filepath.Join(dir, "missing.jpg")}, 1, "missing.jpg"},
		{[]string{"detect", junk}, 1, "no frame could be read"},
		{[]string{"detect", "--calibration", badCal, junk}, 1, "bad.cal.json"},
		{[]string{"detect", "--calibration", filepath.Join(dir, "none.json"), junk}, 1, "none.json"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: got exit %d, %q; want exit %d mentioning %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// Without a calibration the layout is in pixels, and detect says so.
func TestDetectWithoutCalibrationWarns(t *testing.T) {
	photo := synthScene(t, t.TempDir(), "7", "640x360")
	code, out, stderr := runCLI(t, "", "detect", photo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "no calibration given; positions are in pixels") {
		t.Errorf("no warning: %q", stderr)
	}
	l, err := models.Parse([]byte(out))
	if err != nil || len(l.Disks) == 0 {
		t.Fatalf("got %v, %d disks", err, len(l.Disks))
	}
	for _, d := range l.Disks {
		if d.Pixel == nil || math.Abs(float64(d.X)-d.Pixel.PX) > 1e-6 || math.Abs(float64(d.R)-d.Pixel.PR) > 1e-6 {
			t.Errorf("disk %s: x %.2f r %.2f, pixels %+v: want the same numbers", d.ID, d.X, d.R, d.Pixel)
		}
	}
}
