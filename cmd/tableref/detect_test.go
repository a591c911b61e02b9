package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision"
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

// fakeFrames is a vision.Source of grey frames of w x h pixels, limit of
// them, of the kind given; at reads frame i's error (nil for a frame), if
// set.
type fakeFrames struct {
	kind  vision.Kind
	w, h  int
	limit int
	at    func(i int) error
	read  int
}

func (s *fakeFrames) Next(dst *gocv.Mat) error {
	if s.read >= s.limit {
		return io.EOF
	}
	i := s.read
	s.read++
	if s.at != nil {
		if err := s.at(i); err != nil {
			return err
		}
	}
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 100, 110, 0), s.h, s.w, gocv.MatTypeCV8UC3)
	defer m.Close()
	m.CopyTo(dst)
	return nil
}

func (s *fakeFrames) Name() string      { return "camera:5" }
func (s *fakeFrames) Close() error      { return nil }
func (s *fakeFrames) Kind() vision.Kind { return s.kind }

// writeGreyFrames writes grey PNG frames of the given sizes (w, h) into
// dir, named f01.png, f02.png, ...
func writeGreyFrames(t *testing.T, dir string, sizes ...[2]int) {
	t.Helper()
	for i, s := range sizes {
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 100, 110, 0), s[1], s[0], gocv.MatTypeCV8UC3)
		ok := gocv.IMWrite(filepath.Join(dir, fmt.Sprintf("f%02d.png", i+1)), m)
		m.Close()
		if !ok {
			t.Fatal("cannot write a test frame")
		}
	}
}

// A folder whose name ends like an image's is a folder: detect prints a
// layout a line, track follows it.
func TestDetectFolderNamedLikeAnImage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shots.jpg")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeGreyFrames(t, dir, [2]int{160, 120}, [2]int{160, 120})
	code, out, stderr := runCLI(t, "", "detect", dir)
	if code != 0 {
		t.Fatalf("detect: exit %d: %s", code, stderr)
	}
	if n := len(layoutLines(t, out)); n != 2 {
		t.Errorf("detect: %d layout lines, want 2", n)
	}
	code, _, stderr = runCLI(t, "", "track", "--settle", "1", dir)
	if code != 0 || strings.Contains(stderr, "is one image") {
		t.Errorf("track: exit %d, %q; want the folder followed", code, stderr)
	}
}

// Numbers that would wrap in OpenCV's C int and worker counts that make no
// sense are command-line errors.
func TestDetectRefusesOutOfRangeNumbers(t *testing.T) {
	img := filepath.Join(t.TempDir(), "x.png")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"detect", "--camera", "4294967296"}, "cameras are numbered from 0 to 2147483647"},
		{[]string{"track", "--camera", "4294967296"}, "cameras are numbered from 0 to 2147483647"},
		{[]string{"detect", "--camera", "2147483648"}, "cameras are numbered from 0 to 2147483647"},
		{[]string{"detect", "--workers", "0", img}, "--workers 0: want 1 to 64"},
		{[]string{"detect", "--workers", "-5", img}, "--workers -5: want 1 to 64"},
		{[]string{"detect", "--workers", "100000", img}, "--workers 100000: want 1 to 64"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", c.args, code, stderr, c.want)
		}
	}
}

// A video whose frames are all of another size than the calibration's
// says why once, counts the frames, and ends with the count and the
// reason.
func TestDetectTellsARepeatedReasonOnce(t *testing.T) {
	scene := synthScene(t, t.TempDir(), "7", "640x360")
	cal := strings.TrimSuffix(scene, ".jpg") + "-camera.json"
	dir := t.TempDir()
	writeGreyFrames(t, dir, [2]int{320, 180}, [2]int{320, 180}, [2]int{320, 180}, [2]int{320, 180}, [2]int{320, 180})
	code, _, stderr := runCLI(t, "", "detect", "--calibration", cal, dir)
	if code != 1 {
		t.Errorf("exit %d, want 1 (no frame usable)", code)
	}
	reason := "the calibration is for 640x360 frames, this frame is 320x180"
	if n := strings.Count(stderr, reason); n != 2 { // once, and in the summary
		t.Errorf("the reason is told %d times, want once and once in the summary:\n%s", n, stderr)
	}
	for _, want := range []string{"skipped 4 more frames for the same reason", "0 frames, 5 skipped (last: " + filepath.Join(dir, "f05.png") + ": bad frame: calibration does not match: " + reason} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// A camera whose frames are of another size than the calibration's from
// the start ends the run with what to do, rather than skip for ever.
func TestDetectEndsACameraRunOfTheWrongSize(t *testing.T) {
	scene := synthScene(t, t.TempDir(), "7", "640x360")
	cal, err := calibration.Load(strings.TrimSuffix(scene, ".jpg") + "-camera.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind vision.Kind
		ends bool
	}{{vision.KindCamera, true}, {vision.KindVideo, false}} {
		src := &fakeFrames{kind: c.kind, w: 320, h: 180, limit: 200}
		var out, errb bytes.Buffer
		err := detectFrames(context.Background(), src, vision.Options{Calibration: cal}, 2, 0, &env{stdout: &out, stderr: &errb})
		switch {
		case c.ends && (err == nil || !strings.Contains(err.Error(), "calibrate at the camera's resolution") || !strings.Contains(err.Error(), "640x360")):
			t.Errorf("camera: %v, want an error telling to calibrate at the camera's resolution", err)
		// Stopped after cameraMismatchRun frames, give or take what the
		// stream holds when the guard says stop: the read-ahead of two
		// workers (jobs, workers, results, the frames waiting their turn),
		// which ran to 7 on a busy machine. Far from the 200 it would
		// otherwise read.
		case c.ends && src.read > cameraMismatchRun+12:
			t.Errorf("camera: %d frames read, want it stopped after %d (and the frames in flight)", src.read, cameraMismatchRun)
		case !c.ends && (src.read != 200 || err == nil || !strings.Contains(err.Error(), "no frame could be read")):
			t.Errorf("video: %d frames read, %v; want all 200 read and no frame usable", src.read, err)
		}
	}
}

// Ctrl-C: no frame is read after it, the frames read are printed whole,
// then the summary; the run ends with exit 130.
func TestDetectStopsOnInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &fakeFrames{kind: vision.KindCamera, w: 160, h: 120, limit: 100, at: func(i int) error {
		if i == 3 {
			cancel()
		}
		return nil
	}}
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb}
	err := detectFrames(ctx, src, vision.Options{}, 2, 0, e)
	if !errors.Is(err, errInterrupted) {
		t.Errorf("got %v, want errInterrupted", err)
	}
	if n := len(layoutLines(t, out.String())); n != 4 || src.read != 4 {
		t.Errorf("%d layouts of %d frames read, want the 4 read", n, src.read)
	}
	if !strings.Contains(errb.String(), "camera:5: 4 frames, 0 skipped") {
		t.Errorf("no summary: %q", errb.String())
	}
	exited := false
	defer func(f func()) { exitInterrupted = f }(exitInterrupted)
	exitInterrupted = func() { exited = true }
	_ = exitIfInterrupted(err, "detect", e)
	if !exited || !strings.HasSuffix(errb.String(), "tableref detect: interrupted\n") {
		t.Errorf("exited %v, stderr %q; want the process to exit 130 after saying interrupted", exited, errb.String())
	}
}

func TestSkipLog(t *testing.T) {
	var b strings.Builder
	l := &skipLog{w: &b, cmd: "detect"}
	for i, r := range []struct{ file, reason string }{
		{"", "A"}, {"", "A"}, {"", "A"}, {"", "B"}, {"", "A"}, {"", "A"},
		{"f7.png", "f7.png: too big"}, {"f8.png", "f8.png: too big"}, {"f9.png", "f9.png is cut short"},
	} {
		l.skip(i, r.file, r.reason)
	}
	l.flush()
	want := "tableref detect: skipped frame 0: A\n" +
		"tableref detect: skipped 2 more frames for the same reason\n" +
		"tableref detect: skipped frame 3: B\n" +
		"tableref detect: skipped frame 4: A\n" +
		"tableref detect: skipped 1 more frames for the same reason\n" +
		"tableref detect: skipped frame 6: f7.png: too big\n" +
		"tableref detect: skipped 1 more frames for the same reason\n" +
		"tableref detect: skipped frame 8: f9.png is cut short\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if got, want := l.String(), "9 skipped (last: f9.png is cut short)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// TestDetectSaysAPhotographIsSlanted: a photograph of coins squashed as a
// tilted camera sees them is detected stretched back to circles, and the
// warning says so.
func TestDetectSaysAPhotographIsSlanted(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, ok := findRealData(wd)
	if !ok {
		t.Fatal("shared/realdata/circle-dataset-mini not found beside the repository")
	}
	img := gocv.IMRead(filepath.Join(root, "images", "coins.png"), gocv.IMReadColor)
	defer img.Close()
	squashed := gocv.NewMat()
	defer squashed.Close()
	gocv.Resize(img, &squashed, image.Pt(img.Cols(), img.Rows()*3/4), 0, 0, gocv.InterpolationArea)
	photo := filepath.Join(t.TempDir(), "slanted.png")
	if !gocv.IMWrite(photo, squashed) {
		t.Fatal("cannot write the photograph")
	}
	code, out, stderr := runCLI(t, "", "detect", photo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "seen at a slant") {
		t.Errorf("no slant warning: %q", stderr)
	}
	l, err := models.Parse([]byte(out))
	if err != nil || len(l.Disks) != 7 {
		t.Fatalf("got %v, %d disks; want the 7 coins", err, len(l.Disks))
	}
}

// TestDetectSaysOnceHowItCorrectsTheLight: a calibration whose board read
// a dim, warm light (board_white 100, red 130, green 100, blue 60) makes
// every frame brightened and balanced; detect says so once, when it
// starts, for a folder as for a single photograph (the frames' own
// warnings once said it only for a single photograph).
func TestDetectSaysOnceHowItCorrectsTheLight(t *testing.T) {
	dir := t.TempDir()
	photo := synthScene(t, dir, "7", "640x360")
	base := strings.TrimSuffix(photo, ".jpg")
	cal, err := calibration.Load(base + "-camera.json")
	if err != nil {
		t.Fatal(err)
	}
	cal.Quality.BoardWhite, cal.Quality.BoardWhiteRGB = 100, [3]float64{130, 100, 60}
	dim := filepath.Join(dir, "dim.json")
	if err := calibration.Save(dim, cal); err != nil {
		t.Fatal(err)
	}
	frames := filepath.Join(dir, "frames")
	if err := os.Mkdir(frames, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(photo)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.jpg", "b.jpg"} {
		if err := os.WriteFile(filepath.Join(frames, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, src := range []string{frames, photo} {
		code, _, stderr := runCLI(t, "", "detect", "--calibration", dim, src)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", src, code, stderr)
		}
		if n := strings.Count(stderr, "the camera is set dark"); n != 1 {
			t.Errorf("%s: the correction said %d times, want once:\n%s", filepath.Base(src), n, stderr)
		}
	}
}
