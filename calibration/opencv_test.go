package calibration

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// The OpenCV sample photographs (testdata/opencv/README.md): 9x6 inner
// corners; the package's left_intrinsics.yml records 25 mm squares.
var opencvBoard = Board{Cols: 9, Rows: 6, SquareMM: 25}

func opencvPhotos(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/opencv/left*.jpg")
	if err != nil || len(files) != 13 {
		t.Fatalf("got %d OpenCV sample photos (%v), want 13", len(files), err)
	}
	return files
}

// referenceRMS calibrates the photos the plain OpenCV way (the calibration
// sample's recipe: findChessboardCorners with its default flags,
// cornerSubPix, calibrateCamera with flags 0), through gocv. win is
// cornerSubPix's half window: the sample's is 11; 0 takes subPixWindow's.
func referenceRMS(t testing.TB, files []string, win int) float64 {
	t.Helper()
	obj := gocv.NewPoints3fVector()
	defer obj.Close()
	img := gocv.NewPoints2fVector()
	defer img.Close()
	var size image.Point
	for _, f := range files {
		m := gocv.IMRead(f, gocv.IMReadGrayScale)
		defer m.Close()
		size = image.Pt(m.Cols(), m.Rows())
		c := gocv.NewMat()
		defer c.Close()
		if !gocv.FindChessboardCorners(m, image.Pt(9, 6), &c, gocv.CalibCBAdaptiveThresh|gocv.CalibCBNormalizeImage) {
			t.Fatalf("reference: no board in %s", f)
		}
		w := win
		if w == 0 {
			raw, err := c.DataPtrFloat32()
			if err != nil {
				t.Fatal(err)
			}
			w = subPixWindow(raw, 9, 6)
		}
		gocv.CornerSubPix(m, &c, image.Pt(w, w), image.Pt(-1, -1), gocv.NewTermCriteria(gocv.Count|gocv.EPS, 30, 0.001))
		pv := gocv.NewPoint2fVectorFromMat(c)
		defer pv.Close()
		img.Append(pv)
		ov := gocv.NewPoint3fVectorFromPoints(corners3(opencvBoard))
		defer ov.Close()
		obj.Append(ov)
	}
	k, d, rv, tv := gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer k.Close()
	defer d.Close()
	defer rv.Close()
	defer tv.Close()
	return gocv.CalibrateCamera(obj, img, size, &k, &d, &rv, &tv, 0)
}

// boardViews finds the board's corners in each file, and returns them
// with the frames' size.
func boardViews(t testing.TB, files []string) ([][]Pixel, int, int) {
	t.Helper()
	var views [][]Pixel
	var w, h int
	for _, f := range files {
		g, err := ReadGray(f)
		if err != nil {
			t.Fatal(err)
		}
		w, h = g.Width, g.Height
		c, err := FindCorners(g, opencvBoard)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		views = append(views, c)
	}
	return views, w, h
}

func calibrateFiles(t testing.TB, files []string) (Lens, [][]Pixel) {
	t.Helper()
	views, w, h := boardViews(t, files)
	lens, err := CalibrateLens(views, opencvBoard, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return lens, views
}

func TestRMSMatchesOpenCVOnItsSamplePhotos(t *testing.T) {
	files := opencvPhotos(t)
	want := referenceRMS(t, files, 0)
	lens, views := calibrateFiles(t, files)
	if rel := math.Abs(lens.RMSPx-want) / want; rel > 0.05 {
		t.Errorf("RMS: got %.4f px, OpenCV's calibrateCamera gives %.4f px (%.1f %% apart, want within 5 %%)", lens.RMSPx, want, 100*rel)
	}
	t.Logf("RMS %.4f px (OpenCV %.4f px), fx %.1f fy %.1f cx %.1f cy %.1f, k1 %.3f k2 %.3f",
		lens.RMSPx, want, lens.FX, lens.FY, lens.CX, lens.CY, lens.K1, lens.K2)

	// The pure-Go camera model must agree with OpenCV's: refitting each
	// view's pose with OpenCV's intrinsics gives back OpenCV's RMS.
	var s float64
	for i, v := range views {
		c, err := FromBoard(lens, opencvBoard, v)
		if err != nil {
			t.Fatalf("view %d: %v", i, err)
		}
		s += c.Quality.PlaneRMSPx * c.Quality.PlaneRMSPx
	}
	got := math.Sqrt(s / float64(len(views)))
	if rel := math.Abs(got-lens.RMSPx) / lens.RMSPx; rel > 0.01 {
		t.Errorf("pure-Go reprojection RMS: got %.4f px, OpenCV %.4f px (%.2f %% apart, want within 1 %%)", got, lens.RMSPx, 100*rel)
	}
}

// TestReadGrayRefusesImagesClaimingHugeSizes checks that a chessboard
// photo whose header claims more pixels than OpenCV decodes is refused
// with a clear error: OpenCV would throw, and abort the program.
func TestReadGrayRefusesImagesClaimingHugeSizes(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	ihdr := data[12 : 12+4+13] // "IHDR", width, height, ...
	binary.BigEndian.PutUint32(ihdr[4:], 60000)
	binary.BigEndian.PutUint32(ihdr[8:], 60000)
	binary.BigEndian.PutUint32(data[12+4+13:], crc32.ChecksumIEEE(ihdr))
	path := filepath.Join(t.TempDir(), "board.png")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadGray(path)
	if !errors.Is(err, ErrImage) || !strings.Contains(err.Error(), "60000x60000") {
		t.Fatalf("ReadGray: %v, want ErrImage naming the size claimed", err)
	}
	// Bytes of no known format pass to OpenCV, which says it cannot read them.
	if err := CheckImageSize([]byte("not an image"), "x"); err != nil {
		t.Errorf("CheckImageSize of text: %v, want nil (OpenCV judges it)", err)
	}
}

// TestSmallSquaresKeepTheirCorners: cornerSubPix's window must stay
// well within the squares around a corner (subPixWindow). OpenCV's
// sample's 11 px window (a 23 px search) on a board of 8 to 12 px squares
// dragged corners by 3 to 7 px, onto their neighbours; in OpenCV's own
// left02.jpg (squares down to 22 px) by up to 5 px, for a view RMS of
// 1.22 px where the others have 0.2.
func TestSmallSquaresKeepTheirCorners(t *testing.T) {
	for _, sq := range []float64{8, 10, 12.3, 16, 40} {
		t.Run(fmt.Sprintf("squares of %g px", sq), func(t *testing.T) {
			g, want := renderBoard(640, 480, sq, 100.3, 80.6, opencvBoard)
			got, err := FindCorners(g, opencvBoard)
			if err != nil {
				t.Fatal(err)
			}
			// The rendered board's corner order is the test's; only the
			// positions matter here.
			if math.Hypot(got[0].U-want[0].U, got[0].V-want[0].V) > sq/2 {
				reverse(got)
			}
			for i := range got {
				// 0.3 px: the 4x4 supersampling of the render itself
				// shifts edges by up to 0.16 px.
				if d := math.Hypot(got[i].U-want[i].U, got[i].V-want[i].V); d > 0.3 {
					t.Fatalf("corner %d: got %v, want %v (%.2f px off)", i, got[i], want[i], d)
				}
			}
		})
	}
	t.Run("left02.jpg fits like the other views", func(t *testing.T) {
		lens, views := calibrateFiles(t, opencvPhotos(t))
		c, err := FromBoard(lens, opencvBoard, views[1]) // left02.jpg
		if err != nil {
			t.Fatal(err)
		}
		if c.Quality.PlaneRMSPx > 0.4 {
			t.Errorf("left02.jpg: got a plane RMS of %.3f px, want at most 0.4 (the other views: about 0.2)", c.Quality.PlaneRMSPx)
		}
		// And the lens is no worse for it than OpenCV's sample recipe.
		if want := referenceRMS(t, opencvPhotos(t), 11); lens.RMSPx > want {
			t.Errorf("lens RMS: got %.4f px, OpenCV's sample recipe (11 px window) %.4f px", lens.RMSPx, want)
		}
	})
}

// renderBoard draws board (its outer squares black at the corners next to
// corner 0) with squares of sq pixels, its top-left outer corner at
// (ox, oy) in continuous image coordinates, anti-aliased by 4x4 samples,
// and returns it with the exact inner corners in OpenCV's pixel
// convention (pixel i centred on i).
func renderBoard(w, h int, sq, ox, oy float64, b Board) (Gray, []Pixel) {
	g := Gray{Width: w, Height: h, Pix: make([]byte, w*h)}
	const ss = 4
	for y := range h {
		for x := range w {
			var s float64
			for sy := range ss {
				for sx := range ss {
					fx := (float64(x) + (float64(sx)+0.5)/ss - ox) / sq
					fy := (float64(y) + (float64(sy)+0.5)/ss - oy) / sq
					v := 230.0
					if fx >= 0 && fy >= 0 && fx < float64(b.Cols+1) && fy < float64(b.Rows+1) && (int(fx)+int(fy))%2 == 0 {
						v = 25
					}
					s += v
				}
			}
			g.Pix[y*w+x] = byte(s / ss / ss)
		}
	}
	var pts []Pixel
	for j := 1; j <= b.Rows; j++ {
		for i := 1; i <= b.Cols; i++ {
			pts = append(pts, Pixel{ox + float64(i)*sq - 0.5, oy + float64(j)*sq - 0.5})
		}
	}
	return g, pts
}

// TestFindCornersRefusesImagesTooSmall: OpenCV's adaptive threshold
// throws on an image under 15 px a side, which aborted the program (a
// 1x1 PNG given as a board photo).
func TestFindCornersRefusesImagesTooSmall(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {14, 14}, {1000, 10}, {10, 1000}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			g := Gray{Width: size[0], Height: size[1], Pix: make([]byte, size[0]*size[1])}
			_, err := FindCorners(g, opencvBoard)
			if !errors.Is(err, ErrNoBoard) || !strings.Contains(err.Error(), "too small") {
				t.Errorf("got %v, want ErrNoBoard saying the image is too small", err)
			}
		})
	}
}
