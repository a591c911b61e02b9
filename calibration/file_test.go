package calibration

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tableref/models"
)

func sampleCalibration(t testing.TB) *Calibration {
	t.Helper()
	board := Board{Cols: 9, Rows: 6, SquareMM: 30}
	pose := lookAt(Vec3{30, -25, -90}, Vec3{12, 8, 0})
	corners := project(t, testCamera, pose, board.Corners())
	c, err := FromBoard(Lens{Camera: testCamera, Source: SourceChessboard, RMSPx: 0.31, Views: 12}, board, corners)
	if err != nil {
		t.Fatal(err)
	}
	c.Quality.BoardWhite = 187.5
	c.Quality.BoardWhiteRGB = [3]float64{201, 186, 160}
	return c
}

func TestFileRoundTrip(t *testing.T) {
	c := sampleCalibration(t)
	path := filepath.Join(t.TempDir(), "sub", "calibration.json")
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	// Readable by others, as a file the user writes (not CreateTemp's 0600).
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("saved calibration: %v, mode %v; want 0644", err, st.Mode().Perm())
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Lens != c.Lens || *got.Board != *c.Board || got.Quality != c.Quality {
		t.Errorf("round trip: got %+v, want %+v", got, c)
	}
	for _, q := range []models.TablePoint{{X: 0, Y: 0}, {X: 40, Y: 30}} {
		a, _ := c.ImageFromTable(q, 0.2)
		b, err := got.ImageFromTable(q, 0.2)
		if err != nil || math.Hypot(a.U-b.U, a.V-b.V) > 1e-6 {
			t.Errorf("after a round trip %v maps to %v (%v), before to %v", q, b, err, a)
		}
	}
}

func TestCorruptFilesAreClearErrors(t *testing.T) {
	good, err := Marshal(sampleCalibration(t))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string {
		if !strings.Contains(string(good), old) {
			t.Fatalf("sample file lacks %q", old)
		}
		return strings.Replace(string(good), old, new, 1)
	}
	cases := []struct {
		name, data string
		want       error
		says       string
	}{
		{"empty file", "", ErrCorrupt, "the file is empty"},
		{"blank file", " \n\t", ErrCorrupt, "the file is empty"},
		{"not JSON", "calibration", ErrCorrupt, "invalid character"},
		{"truncated", string(good[:len(good)/2]), ErrCorrupt, "cut short"},
		{"a layout file", `{"version": 1, "disks": []}`, ErrCorrupt, "not a calibration file"},
		{"another format", `{"format": "tableref-layout"}`, ErrCorrupt, `format is "tableref-layout"`},
		{"a newer version", edit(`"version": 1`, `"version": 2`), ErrVersion, "version 2"},
		{"no lens", edit(`"lens"`, `"lenses"`), ErrCorrupt, "lens"},
		{"zero focal length", edit(`"camera_matrix": [
      [
        1000,`, `"camera_matrix": [
      [
        0,`), ErrCorrupt, "focal"},
		{"three distortion coefficients", edit(`"distortion": [`, `"distortion": [1, 2, 3], "x": [`), ErrCorrupt, "coefficients"},
		{"negative image size", edit(`"width": 1280`, `"width": -1280`), ErrCorrupt, "image size"},
		{"unknown lens source", edit(`"source": "chessboard"`, `"source": "magic"`), ErrCorrupt, "magic"},
		{"trailing data", string(good) + "{}", ErrCorrupt, "after"},
		{"a focal length far too small", edit(`"camera_matrix": [
      [
        1000,`, `"camera_matrix": [
      [
        1e-300,`), ErrCorrupt, "focal length"},
		{"a focal length far too large", edit(`"camera_matrix": [
      [
        1000,`, `"camera_matrix": [
      [
        1e12,`), ErrCorrupt, "focal length"},
		{"a distortion that folds the picture", edit(`"distortion": [
      -0.12,`, `"distortion": [
      -5,`), ErrCorrupt, "folds"},
		{"an absurd distortion", edit(`"distortion": [
      -0.12,`, `"distortion": [
      1e300,`), ErrCorrupt, "bends"},
		// Loaded before, and shown as "Lens RMS -3.000 px (good)".
		{"a negative lens RMS", strings.Replace(edit(`"rms_px": 0.31`, `"rms_px": -3`), `"rms_px": 0.31`, `"rms_px": -3`, 1), ErrCorrupt, "negative"},
		{"a negative uncertainty", edit(`"centre": `, `"centre": -`), ErrCorrupt, "negative"},
		{"a board white beyond a grey level", edit(`"board_white": 187.5`, `"board_white": 300`), ErrCorrupt, "board_white"},
		{"a board white colour beyond a level", edit(`"board_white_rgb": [
      201,`, `"board_white_rgb": [
      -1,`), ErrCorrupt, "board_white_rgb"},
		{"a board white colour of four values", edit(`"board_white_rgb": [
      201,`, `"board_white_rgb": [
      99, 201,`), ErrCorrupt, "4 values"},
		{"homography of another table", edit(`"homography": [
    [`, `"homography": [
    [ 7,`), ErrCorrupt, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.data))
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("got %v, want %v saying %q", err, c.want, c.says)
			}
		})
	}
}

// TestOtherVersionsAreReportedAsSuch: a file of another version is
// ErrVersion whatever its other fields look like; the fields of version 1
// were once decoded first, and a version 2 that changed one was reported
// as a corrupt file.
func TestOtherVersionsAreReportedAsSuch(t *testing.T) {
	cases := []struct {
		name, data, says string
	}{
		{"a version 2 whose image is a string", `{"format": "tableref-calibration", "version": 2, "image": "1920x1080"}`, "version 2"},
		{"a version 2 whose distortion is an object", `{"format": "tableref-calibration", "version": 2, "lens": {"distortion": {"model": "fisheye"}}}`, "version 2"},
		{"a version written as a fraction", `{"format": "tableref-calibration", "version": 1.5}`, "version 1.5"},
		{"no version", `{"format": "tableref-calibration", "image": {"width": 640, "height": 480}}`, "version none"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.data))
			if !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("got %v, want ErrVersion saying %q", err, c.says)
			}
		})
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cal.json")
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want ErrCorrupt naming %s", err, path)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want os.ErrNotExist", err)
	}
}

func TestCheckFrame(t *testing.T) {
	c := sampleCalibration(t)
	if err := c.CheckFrame(1280, 720); err != nil {
		t.Errorf("same size: got %v, want nil", err)
	}
	if err := c.CheckFrame(1920, 1080); !errors.Is(err, ErrMismatch) {
		t.Errorf("other size: got %v, want ErrMismatch", err)
	}
}

// FuzzParse: any input gives a calibration or an error wrapping
// ErrCorrupt or ErrVersion, never a panic; what parses writes back and
// parses again.
func FuzzParse(f *testing.F) {
	good, err := Marshal(sampleCalibration(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"tableref-calibration","version":1}`))
	f.Add([]byte(`{"format":"tableref-calibration","version":1,"image":{"width":1,"height":1},"lens":{"camera_matrix":[[1,0,0],[0,1,0],[0,0,1]],"distortion":[0,0,0,0,0],"source":"estimated"},"pose":{"rvec":[0,0,0],"tvec_cm":[0,0,1]},"homography":[[1,0,0],[0,1,0],[0,0,1]]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
				t.Fatalf("error %v wraps neither ErrCorrupt nor ErrVersion", err)
			}
			return
		}
		out, err := Marshal(c)
		if err != nil {
			t.Fatalf("parsed but cannot write back: %v", err)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("written back but cannot parse again: %v\n%s", err, bytes.TrimSpace(out))
		}
	})
}

// A calibration from four clicked points (estimated lens) survives the
// file too.
func TestEstimatedCalibrationRoundTrip(t *testing.T) {
	cam := Camera{Width: 1920, Height: 1080, Intrinsics: Intrinsics{FX: 1400, FY: 1400, CX: 960, CY: 540}}
	pose := lookAt(Vec3{0, -50, -85}, Vec3{0, 20, 0})
	table := []models.TablePoint{{X: -40, Y: 0}, {X: 40, Y: 0}, {X: 40, Y: 45}, {X: -40, Y: 45}}
	c, err := FromPoints(nil, 1920, 1080, project(t, cam, pose, table), table)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(b)
	if err != nil {
		t.Fatalf("parsing an estimated calibration: %v", err)
	}
	if got.Board != nil || got.Lens.Source != SourceEstimated {
		t.Errorf("got board %v, source %s; want none and estimated", got.Board, got.Lens.Source)
	}
}

// TestBoardWhite reads the white squares of a drawn board: the brighter
// colour's middles, whichever colour corner 0's square is, and 0 when
// the corners do not fit the board.
func TestBoardWhite(t *testing.T) {
	const cols, rows, sq, x0, y0 = 5, 4, 20, 30, 30
	for _, tc := range []struct{ dark, light byte }{{20, 200}, {60, 120}} {
		for _, swap := range []bool{false, true} {
			g := Gray{Width: 200, Height: 160, Pix: make([]byte, 200*160)}
			for i := range g.Pix {
				g.Pix[i] = 90 // the table
			}
			for y := y0 - sq; y < y0+rows*sq; y++ {
				for x := x0 - sq; x < x0+cols*sq; x++ {
					c := ((x-(x0-sq))/sq + (y-(y0-sq))/sq) % 2
					v := tc.dark
					if (c == 0) != swap {
						v = tc.light
					}
					g.Pix[y*g.Width+x] = v
				}
			}
			var corners []Pixel
			for j := range rows {
				for i := range cols {
					corners = append(corners, Pixel{float64(x0 + i*sq), float64(y0 + j*sq)})
				}
			}
			if got := BoardWhite(g, Board{Cols: cols, Rows: rows, SquareMM: 25}, corners); math.Abs(got-float64(tc.light)) > 0.5 {
				t.Errorf("squares %d and %d (swapped %v): white %.1f, want %d", tc.dark, tc.light, swap, got, tc.light)
			}
			if got := BoardWhite(g, Board{Cols: cols + 1, Rows: rows, SquareMM: 25}, corners); got != 0 {
				t.Errorf("corners not of the board: white %.1f, want 0", got)
			}
			// A shadow over the left 60 % of the board halves its white:
			// the median would be the shadow's (a camera read as set dark,
			// every frame brightened twice over); unevenly lit, it is not
			// measured.
			shaded := Gray{Width: g.Width, Height: g.Height, Pix: slices.Clone(g.Pix)}
			for y := range g.Height {
				for x := range int(float64(x0-sq) + 0.6*float64((cols+1)*sq)) {
					shaded.Pix[y*g.Width+x] /= 2
				}
			}
			if got := BoardWhite(shaded, Board{Cols: cols, Rows: rows, SquareMM: 25}, corners); got != 0 {
				t.Errorf("squares %d and %d, 60 %% shaded: white %.1f, want 0 (not measured)", tc.dark, tc.light, got)
			}
		}
	}
}
