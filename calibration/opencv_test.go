package calibration

import (
	"bytes"
	"encoding/binary"
	"errors"
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
// cornerSubPix 11x11, calibrateCamera with flags 0), through gocv.
func referenceRMS(t testing.TB, files []string) float64 {
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
		gocv.CornerSubPix(m, &c, image.Pt(11, 11), image.Pt(-1, -1), gocv.NewTermCriteria(gocv.Count|gocv.EPS, 30, 0.001))
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
	want := referenceRMS(t, files)
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
