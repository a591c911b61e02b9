package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
	"tableref/ui"
	"tableref/vision"
	"tableref/vision/synth"
)

// smallScene renders scene seed 3 of the easy tier at 640x360 into dir
// with "tableref synth"'s files and returns their common base path.
func smallScene(t *testing.T, dir string) (*synth.Scene, string) {
	t.Helper()
	sc, err := synth.Generate(3, synth.Easy, synth.Options{Width: 640, Height: 360})
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "easy-3")
	if err := writeScene(sc, base); err != nil {
		t.Fatal(err)
	}
	return sc, base
}

func collect(t *testing.T, src ui.FrameSource) ([]ui.Frame, error) {
	t.Helper()
	var frames []ui.Frame
	err := src.Run(context.Background(), func(f ui.Frame) { frames = append(frames, f) })
	return frames, err
}

func TestVisionSpec(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		camera int
		pos    []string
		spec   string
		kind   sourceKind
		vision bool
	}{
		{"a camera", 2, nil, "camera:2", kindCamera, true},
		{"the demo", -1, nil, "", 0, false},
		{"a layout", -1, []string{"table.json"}, "", 0, false},
		{"a game", -1, []string{"game.JSONL"}, "", 0, false},
		{"a photograph", -1, []string{"shot.JPG"}, "shot.JPG", kindStills, true},
		{"a folder", -1, []string{dir}, dir, kindStills, true},
		{"a video", -1, []string{"game.mp4"}, "game.mp4", kindVideo, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, kind, ok := visionSpec(tt.camera, tt.pos)
			if spec != tt.spec || kind != tt.kind || ok != tt.vision {
				t.Errorf("got %q, %v, %v; want %q, %v, %v", spec, kind, ok, tt.spec, tt.kind, tt.vision)
			}
		})
	}
}

// TestVisionSourceOnARenderedPhotograph plays one rendered photograph
// through the detector with its calibration: one frame, the photograph's
// size, disks with their pixel circles, in centimetres.
func TestVisionSourceOnARenderedPhotograph(t *testing.T) {
	sc, base := smallScene(t, t.TempDir())
	cal, err := calibration.Load(base + "-camera.json")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := vision.Open(base + ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	live := &liveState{cal: cal}
	frames, err := collect(t, newVisionSource(vs, kindStills, live))
	if err != nil {
		t.Fatalf("got %v, want the source to end cleanly", err)
	}
	if len(frames) != 1 {
		t.Fatalf("got %d frames, want 1 for one photograph", len(frames))
	}
	f := frames[0]
	if b := f.Image.Bounds(); b.Dx() != 640 || b.Dy() != 360 {
		t.Errorf("got a %v image, want 640x360", b)
	}
	if f.Seq != 1 || f.Motion || f.Note != "" {
		t.Errorf("got seq %d, motion %v, note %q; want 1, still, no note", f.Seq, f.Motion, f.Note)
	}
	want := len(sc.Truth.Disks)
	if got := len(f.Layout.Disks); got < want/2 || got > want+2 {
		t.Errorf("got %d disks, want about %d", got, want)
	}
	for _, d := range f.Layout.Disks {
		if d.Pixel == nil || d.Pixel.PX < 0 || d.Pixel.PX > 640 {
			t.Errorf("disk %s: got pixel circle %+v, want one inside the image", d.ID, d.Pixel)
		}
	}
	if live.frame() == nil {
		t.Error("got no latest frame for the calibration wizard, want the photograph")
	}
}

// fakeSource plays a script: a frame of the given size, an error, ...
type fakeSource struct {
	script []any // image.Point (a frame of that size) or error
	next   int
}

func (s *fakeSource) Next(dst *gocv.Mat) error {
	if s.next >= len(s.script) {
		return io.EOF
	}
	step := s.script[s.next]
	s.next++
	if err, ok := step.(error); ok {
		return err
	}
	p := step.(image.Point)
	m := gocv.NewMatWithSize(p.Y, p.X, gocv.MatTypeCV8UC3)
	defer m.Close()
	m.SetTo(gocv.NewScalar(90, 120, 150, 0))
	m.CopyTo(dst)
	return nil
}

func (s *fakeSource) Name() string { return "camera:9" }
func (s *fakeSource) Close() error { return nil }

// TestVisionSourceSkipsBadFramesAndSaysWhenTheCameraIsGone: an unreadable
// frame is counted and skipped, a frame of the wrong size is shown
// without a layout and held back from rulings, and an unplugged camera
// ends the run with an error that says so.
func TestVisionSourceSkipsBadFramesAndSaysWhenTheCameraIsGone(t *testing.T) {
	_, base := smallScene(t, t.TempDir())
	cal, err := calibration.Load(base + "-camera.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := fmt.Errorf("%w: camera:9 gave no frame", vision.ErrBadFrame)
	gone := fmt.Errorf("camera:9: %w (unplugged?)", vision.ErrSourceGone)
	src := &fakeSource{script: []any{image.Pt(640, 360), bad, image.Pt(320, 240), image.Pt(640, 360), gone}}
	frames, err := collect(t, newVisionSource(src, kindCamera, &liveState{cal: cal}))
	if !errors.Is(err, vision.ErrSourceGone) || !strings.Contains(err.Error(), "2 frames read, 2 skipped") {
		t.Errorf("got %v, want the camera gone, 2 frames read and 2 skipped", err)
	}
	if len(frames) != 3 {
		t.Fatalf("got %d frames, want 3 (the unreadable one skipped)", len(frames))
	}
	if f := frames[0]; f.Motion || f.Note != "" {
		t.Errorf("first frame: got motion %v, note %q; want a plain frame", f.Motion, f.Note)
	}
	wrong := frames[1]
	if !wrong.Motion || len(wrong.Layout.Disks) != 0 || !strings.Contains(wrong.Note, "2 of 3 frames skipped") {
		t.Errorf("wrong size: got motion %v, %d disks, note %q; want held back, empty, 2 of 3 skipped", wrong.Motion, len(wrong.Layout.Disks), wrong.Note)
	}
	if b := wrong.Image.Bounds(); b.Dx() != 320 {
		t.Errorf("wrong size: got a %v image, want the 320x240 frame shown", b)
	}
	for i, f := range frames {
		if f.Seq != i+1 {
			t.Errorf("frame %d: got seq %d, want %d", i, f.Seq, i+1)
		}
	}
}

func TestVisionSourceWithoutCalibrationSaysPixels(t *testing.T) {
	src := &fakeSource{script: []any{image.Pt(320, 240)}}
	frames, err := collect(t, newVisionSource(src, kindCamera, &liveState{}))
	if err != nil || len(frames) != 1 {
		t.Fatalf("got %d frames, %v; want 1, nil", len(frames), err)
	}
	if !strings.Contains(frames[0].Note, "no calibration") {
		t.Errorf("got note %q, want the detector's warning about pixels", frames[0].Note)
	}
}

func TestVisionSourceStopsWhenCancelled(t *testing.T) {
	script := make([]any, 1000)
	for i := range script {
		script[i] = image.Pt(64, 48)
	}
	src := &fakeSource{script: script}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := newVisionSource(src, kindVideo, &liveState{}).Run(ctx, func(ui.Frame) {
		if n++; n == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || n != 2 {
		t.Errorf("got %v after %d frames, want context.Canceled after 2", err, n)
	}
}

// TestLiveCalibratorMeasuresThePlaneAndSaves captures the rendered board
// view, solves keeping the lens in use, hands the result to the detector
// and saves it.
func TestLiveCalibratorMeasuresThePlaneAndSaves(t *testing.T) {
	dir := t.TempDir()
	sc, base := smallScene(t, dir)
	cal, err := calibration.Load(base + "-camera.json")
	if err != nil {
		t.Fatal(err)
	}
	live := &liveState{cal: cal}
	out := filepath.Join(dir, "saved.cal.json")
	c := newLiveCalibrator(live, sc.Board, out)

	if _, err := c.Solve(); err == nil {
		t.Error("solve with no view: got no error, want one")
	}
	photo, err := sc.Render()
	if err != nil {
		t.Fatal(err)
	}
	live.setFrame(photo)
	if n, err := c.Capture(); err == nil || n != 0 || !strings.Contains(err.Error(), "board") {
		t.Errorf("capture of a table without the board: got %d, %v; want 0 and an error about the board", n, err)
	}
	live.setFrame(sc.RenderBoard())
	if n, err := c.Capture(); err != nil || n != 1 {
		t.Fatalf("capture of the board: got %d, %v; want 1 view", n, err)
	}
	_, before := live.calibration()
	r, err := c.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if r.Views != 1 || !(r.RMSPixels >= 0 && r.RMSPixels < 1) || r.UncertaintyMM < detectorEdgeMM || !strings.Contains(r.Note, "Lens kept") {
		t.Errorf("got %+v, want 1 view, a sub-pixel RMS, at least the detector's %g mm, the lens kept", r, detectorEdgeMM)
	}
	if now, after := live.calibration(); after != before+1 || now == cal {
		t.Errorf("got calibration version %d (was %d), want the solved one in use", after, before)
	}
	path, err := c.Save()
	if err != nil || path != out {
		t.Fatalf("save: got %q, %v; want %q", path, err, out)
	}
	saved, err := calibration.Load(out)
	if err != nil {
		t.Fatalf("the saved calibration does not load: %v", err)
	}
	// The board's white, read in the plane's view, goes with the plane:
	// the detector corrects a dim or coloured light by it.
	if w := saved.Quality.BoardWhite; w < 150 || w > 255 || saved.Quality.BoardWhiteRGB[1] < 150 {
		t.Errorf("saved board white %v, rgb %v; want the rendered board's white (about 200-255)", w, saved.Quality.BoardWhiteRGB)
	}
}

func TestLiveCalibratorNeedsViewsOrALens(t *testing.T) {
	sc, _ := smallScene(t, t.TempDir())
	live := &liveState{}
	live.setFrame(sc.RenderBoard())
	c := newLiveCalibrator(live, sc.Board, filepath.Join(t.TempDir(), "x.json"))
	if _, err := c.Capture(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Solve(); err == nil || !strings.Contains(err.Error(), "--calibration") {
		t.Errorf("one view and no lens: got %v, want an error saying how many views or --calibration", err)
	}
	if _, err := c.Save(); err == nil {
		t.Error("save before solving: got no error, want one")
	}
	empty := newLiveCalibrator(&liveState{}, sc.Board, "x.json")
	if _, err := empty.Capture(); err == nil {
		t.Error("capture before any frame: got no error, want one")
	}
}

func TestUICalibrationFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "new.cal.json")
	if cal, path, err := uiCalibration(missing); cal != nil || path != missing || err != nil {
		t.Errorf("a file not yet written: got %v, %q, %v; want none, the path for the wizard, no error", cal, path, err)
	}
	corrupt := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(corrupt, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := uiCalibration(corrupt); err == nil {
		t.Error("a corrupt file: got no error, want one")
	}
}

// gameSource plays a rendered game as a camera, keeping each frame's
// ground truth. Before frame recalibrate it hands the calibration to the
// detector again, as the calibration wizard does after solving.
type gameSource struct {
	game        *synth.Game
	truths      []models.Layout
	live        *liveState
	recalibrate int
}

func (s *gameSource) Next(dst *gocv.Mat) error {
	f, ok := s.game.Next()
	if !ok {
		return io.EOF
	}
	if f.Index == s.recalibrate {
		cal, _ := s.live.calibration()
		s.live.setCalibration(cal)
	}
	m, err := gocv.ImageToMatRGB(f.Image)
	if err != nil {
		return err
	}
	defer m.Close()
	m.CopyTo(dst)
	s.truths = append(s.truths, f.Truth.Clone())
	return nil
}

func (s *gameSource) Name() string { return "camera:7" }
func (s *gameSource) Close() error { return nil }

// TestVisionSourceKeepsEachIDOnOneDisk plays twelve seconds of a rendered
// game (a disk taken off the table, tokens swept, a disk flipped, hands
// over the table) through the source as a camera: the detector renumbers
// the disks in reading order whenever one leaves or moves past another,
// but an id the window sees must stay on one disk of the ground truth for
// the whole game, and a new calibration from the wizard must not rename
// the disks.
func TestVisionSourceKeepsEachIDOnOneDisk(t *testing.T) {
	game, err := synth.NewGame(2, synth.GameOptions{Width: 640, Height: 360, FPS: 10, Minutes: 0.2, Bumps: -1})
	if err != nil {
		t.Fatal(err)
	}
	cal, err := game.Scene.TrueCalibration()
	if err != nil {
		t.Fatal(err)
	}
	live := &liveState{cal: cal}
	src := &gameSource{game: game, live: live, recalibrate: 100}
	frames, err := collect(t, newVisionSource(src, kindCamera, live))
	if err != nil || len(frames) != len(src.truths) {
		t.Fatalf("got %d frames of %d, %v; want all, nil", len(frames), len(src.truths), err)
	}
	owner := map[string]string{} // id shown → ground truth id
	var moved []string
	checked := 0
	for i, f := range frames {
		for _, d := range f.Layout.Disks {
			truth, ok := under(src.truths[i], d)
			if !ok {
				continue
			}
			checked++
			if was, seen := owner[d.ID]; seen && was != truth {
				moved = append(moved, fmt.Sprintf("frame %d: id %s went from disk %s to disk %s", i, d.ID, was, truth))
			}
			owner[d.ID] = truth
		}
	}
	if len(moved) > 0 {
		t.Errorf("got %d ids moved to another disk (first: %s), want none", len(moved), moved[0])
	}
	if checked < len(frames) {
		t.Errorf("got %d disks matched to the ground truth in %d frames, want more", checked, len(frames))
	}
	before, after := idsOf(frames[src.recalibrate-1].Layout), idsOf(frames[src.recalibrate].Layout)
	if !slices.Equal(before, after) {
		t.Errorf("got ids %v after the new calibration, want those before: %v", after, before)
	}
}

func idsOf(l models.Layout) []string {
	var ids []string
	for _, d := range l.Disks {
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	return ids
}

// under returns the id of the ground-truth disk whose outline holds d's
// centre.
func under(truth models.Layout, d models.Disk) (string, bool) {
	for _, e := range truth.Disks {
		if math.Hypot(float64(e.X-d.X), float64(e.Y-d.Y)) < float64(e.R) {
			return e.ID, true
		}
	}
	return "", false
}
