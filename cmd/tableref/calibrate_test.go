package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/calibration"
)

func opencvPhotos(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "calibration", "testdata", "opencv", "left*.jpg"))
	if err != nil || len(files) != 13 {
		t.Fatalf("got %d OpenCV sample photos (%v), want 13", len(files), err)
	}
	return files
}

func TestCalibrateOnOpenCVPhotos(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cal.json")
	args := append([]string{"calibrate", "--board", "9x6", "--square-mm", "25", "--out", out}, opencvPhotos(t)...)
	code, stdout, stderr := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Lens RMS     0.181 px over 13 views", "Board fit", "Uncertainty", out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "13/13") {
		t.Errorf("progress bar: got %q, want it to reach 13/13", stderr)
	}
	c, err := calibration.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	// Re-level the table with the saved lens and another photo as plane.
	out2 := filepath.Join(t.TempDir(), "cal2.json")
	code, _, stderr = runCLI(t, "", "calibrate", "--square-mm", "25", "--lens", out, "--plane", opencvPhotos(t)[4], "--out", out2, "--format", "json")
	if code != 0 {
		t.Fatalf("--lens: exit %d: %s", code, stderr)
	}
	c2, err := calibration.Load(out2)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Lens != c.Lens {
		t.Errorf("--lens: got lens %+v, want %+v", c2.Lens, c.Lens)
	}
}

func TestCalibrateBadInput(t *testing.T) {
	photos := opencvPhotos(t)
	dir := t.TempDir()
	// A photo of the board in another camera mode: OpenCV's second photo
	// on a larger canvas.
	padded := filepath.Join(dir, "padded.png")
	{
		f, err := os.Open(photos[1])
		if err != nil {
			t.Fatal(err)
		}
		src, err := jpeg.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		dst := image.NewRGBA(image.Rect(0, 0, 800, 600))
		draw.Draw(dst, dst.Bounds(), image.NewUniform(color.Gray{128}), image.Point{}, draw.Src)
		draw.Draw(dst, src.Bounds().Add(image.Pt(80, 60)), src, src.Bounds().Min, draw.Src)
		writePNG(t, padded, dst)
	}
	blank := filepath.Join(dir, "blank.png")
	writePNG(t, blank, image.NewGray(image.Rect(0, 0, 640, 480)))
	corrupt := filepath.Join(dir, "corrupt.json")
	if err := os.WriteFile(corrupt, []byte(`{"format": "tableref-calibration", "version": 1`), 0o644); err != nil {
		t.Fatal(err)
	}
	tiny := filepath.Join(dir, "tiny.png")
	writePNG(t, tiny, image.NewGray(image.Rect(0, 0, 4, 4)))
	out := filepath.Join(dir, "out.json")
	// A copy of a photo, which a wrong --out must not overwrite.
	photo := filepath.Join(dir, "photo.jpg")
	data, err := os.ReadFile(photos[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(photo, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Re-takes of the first photo: the same pose with fresh image noise.
	noisy := make([]string, 3)
	for i := range noisy {
		noisy[i] = filepath.Join(dir, fmt.Sprintf("retake%d.jpg", i))
		writeNoisyCopy(t, photos[0], noisy[i], uint64(i))
	}
	cases := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"no square size", []string{"--out", out, photos[0]}, 2, "--square-mm is required"},
		{"a bad board size", []string{"--board", "nine", "--square-mm", "25", photos[0]}, 2, "not a size"},
		{"no photos", []string{"--square-mm", "25"}, 2, "give the photos"},
		{"squares counted instead of corners", append([]string{"--board", "10x7", "--square-mm", "25", "--out", out}, photos[:3]...), 1, "one with 9x6"},
		{"no board in the photos", []string{"--square-mm", "25", "--out", out, blank, blank, blank}, 1, "no chessboard found"},
		{"an unreadable image", []string{"--square-mm", "25", "--out", out, photos[0], "calibrate_test.go"}, 1, "unreadable image"},
		{"a missing image", []string{"--square-mm", "25", "--out", out, filepath.Join(dir, "missing.jpg")}, 1, "unreadable image"},
		{"images of different sizes", []string{"--square-mm", "25", "--out", out, photos[0], padded}, 1, "different sizes"},
		{"a plane without the board", append([]string{"--square-mm", "25", "--out", out, "--plane", blank}, photos...), 1, "no chessboard found"},
		{"a board OpenCV cannot look for", append([]string{"--board", "2x2", "--square-mm", "25", "--out", out}, photos[:3]...), 2, "at least 3x3"},
		{"a square under a millimetre", append([]string{"--square-mm", "1e-300", "--out", out}, photos[:3]...), 2, "between 1 and 1000 mm"},
		{"the output one of the photos", append([]string{"--square-mm", "25", "--out", photo, photo}, photos[1:4]...), 2, "one of the input files"},
		{"one photo given three times", []string{"--square-mm", "25", "--out", out, photos[0], photos[0], photos[0]}, 1, "same view as"},
		// These three fit a lens whose distortion folds the frame; it was
		// saved, then refused by Load.
		{"photos that fit an unusable lens", append([]string{"--square-mm", "25", "--out", out}, photos[3], photos[6], photos[7]), 1, "Nothing was saved"},
		{"re-taken photos of one pose", []string{"--square-mm", "25", "--out", out, photos[0], noisy[0], noisy[1], noisy[2]}, 1, "the board has not moved"},
		{"a corrupt lens file", []string{"--square-mm", "25", "--out", out, "--lens", corrupt, "--plane", photos[0]}, 1, "corrupt calibration file"},
		// OpenCV's corner finder threw on it, and the program aborted.
		{"a photo of 4x4 pixels", []string{"--square-mm", "25", "--out", out, tiny}, 1, "too small to show a chessboard"},
		// It failed only when saving, after the whole lens calibration,
		// with "rename ...: file exists".
		{"the output a directory", append([]string{"--square-mm", "25", "--out", dir}, photos...), 2, "is a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", append([]string{"calibrate"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.says) {
				t.Errorf("got exit %d, stderr %q; want exit %d saying %q", code, stderr, c.code, c.says)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed calibration wrote %s", out)
	}
	if got, err := os.ReadFile(photo); err != nil || !bytes.Equal(got, data) {
		t.Errorf("the photo given as --out was changed (%v)", err)
	}
}

// TestCalibratePlaneIsTheFirstPhotoWithTheBoard: without --plane, a first
// photo without the board was skipped for the lens and then taken as the
// table plane, failing the whole run after the lens was calibrated.
func TestCalibratePlaneIsTheFirstPhotoWithTheBoard(t *testing.T) {
	dir := t.TempDir()
	blank := filepath.Join(dir, "blank.png")
	// Of another size than the photos, as OpenCV's right.jpg is beside
	// its right01-14.jpg: a photo without the board sets no camera mode
	// (it once refused the whole run as "images of different sizes").
	writePNG(t, blank, image.NewGray(image.Rect(0, 0, 612, 459)))
	out := filepath.Join(dir, "cal.json")
	photos := opencvPhotos(t)
	code, stdout, stderr := runCLI(t, "", append([]string{"calibrate", "--square-mm", "25", "--out", out, blank}, photos...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "Table plane  " + filepath.Base(photos[0]); !strings.Contains(stdout, want) {
		t.Errorf("summary lacks %q:\n%s", want, stdout)
	}
	if !strings.Contains(stderr, "blank.png: no chessboard found") {
		t.Errorf("stderr lacks the warning for blank.png: %q", stderr)
	}
	if _, err := calibration.Load(out); err != nil {
		t.Error(err)
	}
}

// TestCalibrateSummaryDoesNotClaimToCheckTheSquareSize: the lens and the
// plane are both fitted to --square-mm, so the photos cannot check it:
// declaring 50 mm squares for the 25 mm board of OpenCV's photos gives the
// same RMS and the same board fit. The summary once called that figure
// "measured square / declared" and sent a poor RMS to --square-mm.
func TestCalibrateSummaryDoesNotClaimToCheckTheSquareSize(t *testing.T) {
	fit := map[string]string{}
	for _, square := range []string{"25", "50"} {
		out := filepath.Join(t.TempDir(), "cal.json")
		code, stdout, stderr := runCLI(t, "", append([]string{"calibrate", "--square-mm", square, "--out", out}, opencvPhotos(t)...)...)
		if code != 0 {
			t.Fatalf("--square-mm %s: exit %d: %s", square, code, stderr)
		}
		if strings.Contains(stdout, "measured square / declared") || !strings.Contains(stdout, "ruler") {
			t.Errorf("--square-mm %s: the summary claims to check the square size, or does not send to a ruler:\n%s", square, stdout)
		}
		_, line, ok := strings.Cut(stdout, "Board fit")
		if !ok {
			t.Fatalf("--square-mm %s: no board fit in the summary:\n%s", square, stdout)
		}
		fit[square] = strings.Fields(line)[5] // "squares seen through the calibration: 1.0002 x ..."
	}
	if fit["25"] != fit["50"] {
		t.Errorf("board fit: got %s for 25 mm and %s for 50 mm, want the same (the photos cannot tell)", fit["25"], fit["50"])
	}
	for _, rms := range []float64{0.3, 0.7, 2} {
		if j := judgeRMS(rms); strings.Contains(j, "square-mm") {
			t.Errorf("judgeRMS(%g) = %q: the RMS does not depend on --square-mm", rms, j)
		}
	}
}

// writeNoisyCopy writes src again as a JPEG with Gaussian noise of 8
// grey levels: a photo re-taken without moving the board.
func writeNoisyCopy(t *testing.T, src, dst string, seed uint64) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	b := img.Bounds()
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, _, _, _ := img.At(x, y).RGBA()
			out.Pix[(y-b.Min.Y)*out.Stride+x-b.Min.X] = uint8(max(0, min(255, float64(r>>8)+8*rng.NormFloat64())))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The printed board has its physical size in the PNG and is found by the
// calibration with corner 0 next to the black top-left square.
func TestBoardIsPrintableAndFound(t *testing.T) {
	out := filepath.Join(t.TempDir(), "board.png")
	code, stdout, stderr := runCLI(t, "", "board", "--squares", "10x7", "--square-mm", "20", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "--board 9x6 --square-mm 20") {
		t.Errorf("output lacks the calibrate command line:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("pHYs"))
	if i < 0 {
		t.Fatal("no pHYs chunk")
	}
	ppm := binary.BigEndian.Uint32(data[i+4:])
	if want := uint32(math.Round(300 / 0.0254)); ppm != want || data[i+12] != 1 {
		t.Errorf("pHYs: got %d px per unit %d, want %d px per metre", ppm, data[i+12], want)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	corners, err := calibration.FindCorners(calibration.GrayFromImage(img), calibration.Board{Cols: 9, Rows: 6, SquareMM: 20})
	if err != nil {
		t.Fatal(err)
	}
	sq := 20 / 25.4 * 300
	margin := math.Round(10 / 25.4 * 300)
	want := calibration.Pixel{U: margin + sq, V: margin + sq}
	if d := math.Hypot(corners[0].U-want.U, corners[0].V-want.V); d > 1.5 {
		t.Errorf("corner 0: got %v, want %v (next to the black square)", corners[0], want)
	}
	if corners[1].U <= corners[0].U || corners[9].V <= corners[0].V {
		t.Errorf("corner order: got 0 %v, 1 %v, 9 %v; want x to the right and y down", corners[0], corners[1], corners[9])
	}
}

func TestBoardBadInput(t *testing.T) {
	cases := [][]string{
		{"--squares", "10x7"},
		{"--out", "x.png", "--squares", "2x2"},
		{"--out", "x.png", "--dpi", "72"},
		{"--out", "x.png", "--square-mm", "-3"},
	}
	for _, args := range cases {
		if code, _, _ := runCLI(t, "", append([]string{"board"}, args...)...); code != 2 {
			t.Errorf("board %v: got exit %d, want 2", args, code)
		}
	}
}
