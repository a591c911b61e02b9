package calibration

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/models"
)

func TestLensValidate(t *testing.T) {
	good := Lens{Camera: Camera{Width: 640, Height: 480, Intrinsics: Intrinsics{FX: 500, FY: 500, CX: 320, CY: 240}}, Source: SourceChessboard}
	with := func(f func(*Lens)) Lens { l := good; f(&l); return l }
	cases := []struct {
		name string
		lens Lens
		says string // "" for a lens that must pass
	}{
		{"a lens without distortion passes", good, ""},
		{"a mild barrel lens passes", with(func(l *Lens) { l.K1 = -0.2 }), ""},
		{"a pincushion lens passes", with(func(l *Lens) { l.K1 = 0.3 }), ""},
		{"a zero focal length is refused", with(func(l *Lens) { l.FX = 0 }), "must be positive"},
		{"a focal length of 10 px is refused", with(func(l *Lens) { l.FX, l.FY = 10, 10 }), "not a camera's"},
		{"a huge coefficient is refused", with(func(l *Lens) { l.K2 = 80 }), "no lens bends that much"},
		{"a fold inside the corner's radius is refused", with(func(l *Lens) { l.K1 = -1 }), "folds the picture back"},
		// Monotone up to r = 0.8, the corner's radius, but its peak (r
		// 0.91, rd 0.61) lies short of 0.8: the corners of the frame see
		// no ray (TestPixelsPastTheFoldAreOffTheTable), the rest is
		// measured right, and the lens is kept.
		{"a fold between the corner's distorted and true radii passes", with(func(l *Lens) { l.K1 = -0.4 }), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.lens.Validate()
			switch {
			case c.says == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case c.says != "" && (err == nil || !errors.Is(err, ErrCamera) || !strings.Contains(err.Error(), c.says)):
				t.Errorf("got %v, want an ErrCamera saying %q", err, c.says)
			}
		})
	}
}

// TestSaveRefusesWhatLoadRefuses: a calibration whose lens Load would
// refuse is not written, and the file already there is kept.
func TestSaveRefusesWhatLoadRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calibration.json")
	good := sampleCalibration(t)
	if err := Save(path, good); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := *good
	bad.Lens.K1 = -1 // folds the picture back within the frame (TestLensValidate)
	err = Save(path, &bad)
	if err == nil || !strings.Contains(err.Error(), "would not load back") {
		t.Fatalf("saving an unusable lens: got %v, want a refusal", err)
	}
	after, err := os.ReadFile(path)
	if err != nil || string(after) != string(before) {
		t.Errorf("the refused save changed the file already there (%v)", err)
	}
	if _, err := Load(path); err != nil {
		t.Errorf("the file kept no longer loads: %v", err)
	}
}

func opencvViews(t *testing.T, names ...string) ([][]Pixel, int, int) {
	t.Helper()
	files := make([]string, len(names))
	for i, n := range names {
		files[i] = filepath.Join("testdata", "opencv", n)
	}
	return boardViews(t, files)
}

// TestCalibrateLensRefusesALensItCannotSave: three of OpenCV's photos fit
// a lens whose distortion folds the frame (reported "RMS 0.206 px, good"
// before, then refused by Load). CalibrateLens must refuse it itself.
func TestCalibrateLensRefusesALensItCannotSave(t *testing.T) {
	views, w, h := opencvViews(t, "left04.jpg", "left07.jpg", "left08.jpg")
	l, err := CalibrateLens(views, opencvBoard, w, h)
	if err == nil || !errors.Is(err, ErrDegenerate) || !strings.Contains(err.Error(), "not usable") {
		t.Fatalf("got lens %+v, error %v; want ErrDegenerate saying the lens is not usable", l, err)
	}
}

// jitter returns v with every corner moved by Gaussian noise of sigma px,
// as a re-taken photo of a board that has not moved.
func jitter(v []Pixel, sigma float64, rng *rand.Rand) []Pixel {
	out := make([]Pixel, len(v))
	for i, p := range v {
		out[i] = Pixel{p.U + sigma*rng.NormFloat64(), p.V + sigma*rng.NormFloat64()}
	}
	return out
}

func TestCalibrateLensSkipsRepeatedPoses(t *testing.T) {
	files := opencvPhotos(t)
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	all, w, h := opencvViews(t, names...)
	want, err := CalibrateLens(all, opencvBoard, w, h)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// Four shots of left01 with image noise (the review's re-encodings
	// move corners by about 0.06 px; 0.3 px here).
	repeats := make([][]Pixel, 4)
	for i := range repeats {
		repeats[i] = jitter(all[0], 0.3, rng)
	}
	t.Run("repeats of one pose alone are refused", func(t *testing.T) {
		l, err := CalibrateLens(repeats, opencvBoard, w, h)
		if err == nil || !errors.Is(err, ErrDegenerate) || !strings.Contains(err.Error(), "only 1 different pose") {
			t.Errorf("got lens fx %.1f, error %v; want ErrDegenerate saying only 1 different pose", l.FX, err)
		}
	})
	t.Run("repeats among distinct views are left out", func(t *testing.T) {
		l, err := CalibrateLens(append(append([][]Pixel(nil), all...), repeats...), opencvBoard, w, h)
		if err != nil {
			t.Fatal(err)
		}
		if l.Views != len(all) || l != want {
			t.Errorf("got %d views, fx %.2f; want the lens of the %d distinct views (fx %.2f)", l.Views, l.FX, len(all), want.FX)
		}
	})
}

func TestSameView(t *testing.T) {
	a := []Pixel{{100, 100}, {200, 100}, {100, 200}}
	shift := func(d float64) []Pixel { return []Pixel{{100 + d, 100}, {200, 100}, {100, 200 - d}} }
	cases := []struct {
		name string
		b    []Pixel
		want bool
	}{
		{"identical corners are the same view", shift(0), true},
		{"corners moved by image noise are the same view", shift(0.3), true},
		{"corners moved by 1.9 px are the same view", shift(1.9), true},
		{"a corner moved by 3 px is another view", shift(3), false},
		{"a different number of corners is another view", a[:2], false},
		{"a NaN corner is another view", []Pixel{{math.NaN(), 100}, {200, 100}, {100, 200}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SameView(a, c.b); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestCalibrateLensNeedsTiltedBoards: boards parallel to each other do
// not tell the focal length (MinTiltSpreadDeg); boards tilted in several
// directions do.
func TestCalibrateLensNeedsTiltedBoards(t *testing.T) {
	cam := Camera{Width: 1280, Height: 720, Intrinsics: Intrinsics{FX: 1000, FY: 1000, CX: 640, CY: 360},
		Distortion: Distortion{K1: -0.1, K2: 0.03}}
	board := Board{Cols: 9, Rows: 6, SquareMM: 30}
	centre := Vec3{12, 7.5, 0}
	tilted := []Vec3{{-30, -20, -70}, {35, -15, -75}, {0, 30, -70}, {-25, 25, -80}, {30, 25, -65}, {0, 0, -60}}
	base := lookAt(Vec3{-20, -15, -70}, centre)
	rng := rand.New(rand.NewPCG(3, 4))
	var varied, parallel [][]Pixel
	for _, eye := range tilted {
		varied = append(varied, jitter(project(t, cam, lookAt(eye, centre), board.Corners()), 0.1, rng))
	}
	// The same orientation, the board slid about in front of the camera.
	for _, d := range []Vec3{{0, 0, 0}, {-8, -5, 5}, {8, -4, -5}, {-6, 5, 10}, {7, 6, 0}, {0, 2, -8}} {
		p := Pose{R: base.R, T: base.T.add(d)}
		parallel = append(parallel, jitter(project(t, cam, p, board.Corners()), 0.1, rng))
	}
	t.Run("boards tilted in several directions give the focal length", func(t *testing.T) {
		l, err := CalibrateLens(varied, board, cam.Width, cam.Height)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(l.FX-cam.FX) > 0.02*cam.FX {
			t.Errorf("got fx %.1f, want %.1f within 2 %%", l.FX, cam.FX)
		}
	})
	t.Run("parallel boards are refused", func(t *testing.T) {
		l, err := CalibrateLens(parallel, board, cam.Width, cam.Height)
		if err == nil || !errors.Is(err, ErrDegenerate) || !strings.Contains(err.Error(), "parallel") {
			t.Errorf("got lens fx %.1f, error %v; want ErrDegenerate saying the boards are parallel", l.FX, err)
		}
	})
}

func TestNonFiniteInputsAreOffTheTable(t *testing.T) {
	c := sampleCalibration(t)
	nan, inf := math.NaN(), math.Inf(1)
	pixels := []struct {
		name   string
		u, v   float64
		height float64
	}{
		{"a NaN column", nan, 300, 0},
		{"an infinite column", inf, 300, 0},
		{"a minus-infinite row", 600, -inf, 0},
		{"a NaN height", 600, 300, nan},
		{"a minus-infinite height", 600, 300, -inf},
	}
	for _, p := range pixels {
		t.Run("TableFromImage with "+p.name, func(t *testing.T) {
			got, err := c.TableFromImage(p.u, p.v, models.Centimetres(p.height))
			if !errors.Is(err, ErrOffTable) {
				t.Errorf("got %v, %v; want ErrOffTable", got, err)
			}
		})
	}
	points := []struct {
		name   string
		p      models.TablePoint
		height float64
	}{
		{"a NaN x", models.TablePoint{X: models.Centimetres(nan), Y: 5}, 0},
		{"an infinite y", models.TablePoint{X: 5, Y: models.Centimetres(inf)}, 0},
		{"a NaN height", models.TablePoint{X: 5, Y: 5}, nan},
	}
	for _, p := range points {
		t.Run("ImageFromTable with "+p.name, func(t *testing.T) {
			got, err := c.ImageFromTable(p.p, models.Centimetres(p.height))
			if !errors.Is(err, ErrOffTable) {
				t.Errorf("got %v, %v; want ErrOffTable", got, err)
			}
		})
	}
}

func TestPlaneRefusesNonFiniteInputs(t *testing.T) {
	p := sampleCalibration(t).Plane
	nan := math.NaN()
	if got, err := p.TableFromUndistorted(Pixel{nan, 300}, 0); !errors.Is(err, ErrOffTable) {
		t.Errorf("TableFromUndistorted of a NaN pixel: got %v, %v; want ErrOffTable", got, err)
	}
	if got, err := p.TableFromUndistorted(Pixel{600, 300}, models.Centimetres(nan)); !errors.Is(err, ErrOffTable) {
		t.Errorf("TableFromUndistorted at a NaN height: got %v, %v; want ErrOffTable", got, err)
	}
	if got, err := p.UndistortedFromTable(models.TablePoint{X: models.Centimetres(math.Inf(-1)), Y: 3}, 0); !errors.Is(err, ErrOffTable) {
		t.Errorf("UndistortedFromTable of an infinite point: got %v, %v; want ErrOffTable", got, err)
	}
}

// TestUnconvergedUndistortionIsOffTheTable: far outside the frame a
// barrel lens folds, and Undistort stops without an answer; that pixel
// has no ray and must not map to a table point.
func TestUnconvergedUndistortionIsOffTheTable(t *testing.T) {
	c := sampleCalibration(t)
	if _, err := c.TableFromImage(640, 360, 0); err != nil {
		t.Fatalf("the centre of the frame: %v", err)
	}
	u := c.Lens.CX + 5*c.Lens.FX // normalised radius 5, far past the fold
	if got, err := c.TableFromImage(u, c.Lens.CY, 0); !errors.Is(err, ErrOffTable) {
		t.Errorf("got %v, %v; want ErrOffTable", got, err)
	}
}

// TestPixelsPastTheFoldAreOffTheTable: a barrel lens whose distortion
// peaks short of the frame's corners (TestLensValidate's k1 -0.4) is
// kept; the frame's centre still maps to the table, and its corners, past
// the fold, have no ray and are off the table rather than mapped to a
// point the camera does not see there.
func TestPixelsPastTheFoldAreOffTheTable(t *testing.T) {
	c := sampleCalibration(t)
	c.Lens.K1, c.Lens.K2, c.Lens.K3 = -0.4, 0, 0
	if err := c.Lens.Validate(); err != nil {
		t.Fatalf("the lens is refused: %v", err)
	}
	if _, err := c.TableFromImage(c.Lens.CX, c.Lens.CY, 0); err != nil {
		t.Errorf("the frame's centre: %v", err)
	}
	w, h := float64(c.Lens.Width-1), float64(c.Lens.Height-1)
	for _, p := range []Pixel{{0, 0}, {w, 0}, {0, h}, {w, h}} {
		q := c.Lens.Undistorted(p)
		back := c.Lens.Distorted(q)
		if math.Hypot(back.U-p.U, back.V-p.V) < 1 {
			continue // this corner lies inside the fold after all
		}
		if got, err := c.TableFromImage(p.U, p.V, 0); !errors.Is(err, ErrOffTable) {
			t.Errorf("corner %v past the fold: got %v, %v; want ErrOffTable", p, got, err)
		}
		return
	}
	t.Fatal("no corner of the frame lies past the fold: the test tests nothing")
}
