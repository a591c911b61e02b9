package calibration

import (
	"errors"
	"fmt"
	"image"
	"math"
	"os"

	"gocv.io/x/gocv"
)

// Errors of chessboard images, for errors.Is.
var (
	// ErrNoBoard: no chessboard of the given size was found in an image.
	ErrNoBoard = errors.New("no chessboard found")
	// ErrImage: an image cannot be read or decoded.
	ErrImage = errors.New("unreadable image")
)

// Gray is an 8-bit grey image, row by row, Width x Height bytes: the form
// in which images reach OpenCV.
type Gray struct {
	Width, Height int
	Pix           []byte
}

// GrayFromImage converts any image to grey (ITU-R 601 luma).
func GrayFromImage(img image.Image) Gray {
	b := img.Bounds()
	g := Gray{Width: b.Dx(), Height: b.Dy(), Pix: make([]byte, b.Dx()*b.Dy())}
	if gi, ok := img.(*image.Gray); ok {
		for y := range g.Height {
			copy(g.Pix[y*g.Width:(y+1)*g.Width], gi.Pix[y*gi.Stride:y*gi.Stride+g.Width])
		}
		return g
	}
	for y := range g.Height {
		for x := range g.Width {
			r, gg, bb, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			g.Pix[y*g.Width+x] = uint8((19595*r + 38470*gg + 7471*bb + 1<<15) >> 24)
		}
	}
	return g
}

// ReadGray reads an image file (PNG, JPEG, BMP, ... anything OpenCV
// reads) as grey.
func ReadGray(path string) (Gray, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Gray{}, fmt.Errorf("%w: %v", ErrImage, err)
	}
	if err := CheckImageSize(data, path); err != nil {
		return Gray{}, err
	}
	// Decoded from the bytes already read, as IMRead would.
	m, err := gocv.IMDecode(data, gocv.IMReadGrayScale)
	defer m.Close()
	if err != nil || m.Empty() {
		return Gray{}, fmt.Errorf("%s: %w (missing, not an image, or a format OpenCV cannot decode)", path, ErrImage)
	}
	b, err := m.DataPtrUint8()
	if err != nil || len(b) != m.Rows()*m.Cols() {
		return Gray{}, fmt.Errorf("%s: %w: unexpected pixel layout", path, ErrImage)
	}
	return Gray{Width: m.Cols(), Height: m.Rows(), Pix: append([]byte(nil), b...)}, nil
}

func (g Gray) mat() (gocv.Mat, error) {
	if g.Width <= 0 || g.Height <= 0 || len(g.Pix) != g.Width*g.Height {
		return gocv.Mat{}, fmt.Errorf("%w: a %dx%d grey image with %d bytes", ErrImage, g.Width, g.Height, len(g.Pix))
	}
	return gocv.NewMatFromBytes(g.Height, g.Width, gocv.MatTypeCV8U, g.Pix)
}

func (g Gray) at(x, y float64) (float64, bool) {
	xi, yi := int(math.Round(x)), int(math.Round(y))
	if xi < 1 || yi < 1 || xi >= g.Width-1 || yi >= g.Height-1 {
		return 0, false
	}
	var s float64
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			s += float64(g.Pix[(yi+dy)*g.Width+xi+dx])
		}
	}
	return s / 9, true
}

// FindCorners finds the inner corners of board in g, refined to sub-pixel
// precision, in the canonical order of Canonical.
func FindCorners(g Gray, board Board) ([]Pixel, error) {
	if err := board.Validate(); err != nil {
		return nil, err
	}
	m, err := g.mat()
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if g.Width < minBoardImageSide || g.Height < minBoardImageSide {
		return nil, fmt.Errorf("%w: the image is only %dx%d pixels, too small to show a chessboard (at least %d a side)",
			ErrNoBoard, g.Width, g.Height, minBoardImageSide)
	}
	pts, ok := findCorners(m, board.Cols, board.Rows, gocv.CalibCBAdaptiveThresh|gocv.CalibCBNormalizeImage)
	if !ok {
		return nil, noBoardError(m, board)
	}
	return Canonical(g, board, pts), nil
}

// minBoardImageSide is the smallest image side, in pixels, searched for a
// chessboard. Below 15 OpenCV's adaptive threshold gets a block size of 1,
// throws, and the program aborts.
const minBoardImageSide = 16

// findCorners runs OpenCV's chessboard finder and cornerSubPix with the
// settings of OpenCV's calibration sample (30 iterations or 0.001 px),
// its 11 px window made smaller where the squares are too small for it
// (subPixWindow).
func findCorners(m gocv.Mat, cols, rows int, flags gocv.CalibCBFlag) ([]Pixel, bool) {
	corners := gocv.NewMat()
	defer corners.Close()
	if !gocv.FindChessboardCorners(m, image.Pt(cols, rows), &corners, flags) || corners.Rows()*corners.Cols() != cols*rows {
		return nil, false
	}
	raw, err := corners.DataPtrFloat32()
	if err != nil || len(raw) != 2*cols*rows {
		return nil, false
	}
	win := subPixWindow(raw, cols, rows)
	crit := gocv.NewTermCriteria(gocv.Count|gocv.EPS, 30, 0.001)
	gocv.CornerSubPix(m, &corners, image.Pt(win, win), image.Pt(-1, -1), crit)
	data, err := corners.DataPtrFloat32()
	if err != nil || len(data) != 2*cols*rows {
		return nil, false
	}
	pts := make([]Pixel, cols*rows)
	for i := range pts {
		pts[i] = Pixel{float64(data[2*i]), float64(data[2*i+1])}
	}
	return pts, true
}

// subPixWindow returns the half side of cornerSubPix's search window for
// corners xy (x, y pairs, cols a row): OpenCV's sample's 11, or 0.4 times
// the shortest distance between neighbouring corners where that is less.
// A window reaching far into the squares around a corner takes in the
// next corners' edges, and cornerSubPix then drags the corner off: by
// 5 px in OpenCV's own left02.jpg (22 px squares) with the 11 px window,
// onto the neighbouring corner on a board of 12 px squares, to a plane
// error of 2.6 mm (p95) on a rendered hard-tier board view at 960x540.
// 0.4 keeps them all right; a third does as well on OpenCV's photos but
// averages the noise of rendered (blurred, noisy) views less well.
func subPixWindow(xy []float32, cols, rows int) int {
	near := math.Inf(1)
	for j := range rows {
		for i := range cols {
			k := j*cols + i
			if i+1 < cols {
				near = min(near, math.Hypot(float64(xy[2*k+2]-xy[2*k]), float64(xy[2*k+3]-xy[2*k+1])))
			}
			if j+1 < rows {
				k2 := k + cols
				near = min(near, math.Hypot(float64(xy[2*k2]-xy[2*k]), float64(xy[2*k2+1]-xy[2*k+1])))
			}
		}
	}
	return max(2, min(11, int(0.4*near)))
}

// noBoardError explains a failed search, naming the board size that was
// found instead when the user seems to have counted squares rather than
// inner corners or swapped the two numbers.
func noBoardError(m gocv.Mat, b Board) error {
	guesses := [][2]int{{b.Cols - 1, b.Rows - 1}, {b.Rows, b.Cols}, {b.Cols + 1, b.Rows + 1}}
	for _, s := range guesses {
		if s[0] < 3 || s[1] < 3 || s == [2]int{b.Cols, b.Rows} {
			continue
		}
		if _, ok := findCorners(m, s[0], s[1], gocv.CalibCBAdaptiveThresh|gocv.CalibCBNormalizeImage|gocv.CalibCBFastCheck); ok {
			return fmt.Errorf("%w with %dx%d inner corners, but one with %dx%d: --board counts inner corners (one fewer than the squares in each direction)",
				ErrNoBoard, b.Cols, b.Rows, s[0], s[1])
		}
	}
	return fmt.Errorf("%w with %dx%d inner corners: the whole board must be in view, flat, well lit and in focus",
		ErrNoBoard, b.Cols, b.Rows)
}

// Canonical orders the corners of a board the same way whatever way it
// was seen: the frame is right-handed as seen by the camera (x along a
// row, y from row to row, turning like the image's u and v), and corner 0
// is the inner corner next to a dark outer corner square (boards from
// "tableref board" have a black top-left square). Where both candidates
// are alike (the board's corner counts add up to an even number), corner
// 0 is the one nearer the image's top-left.
func Canonical(g Gray, b Board, pts []Pixel) []Pixel {
	if len(pts) != b.Cols*b.Rows {
		return pts
	}
	out := append([]Pixel(nil), pts...)
	c0, c1, cn := out[0], out[1], out[b.Cols]
	if (c1.U-c0.U)*(cn.V-c0.V)-(c1.V-c0.V)*(cn.U-c0.U) < 0 {
		// Mirrored: reverse the order of the rows.
		for j := range b.Rows / 2 {
			for i := range b.Cols {
				a, z := j*b.Cols+i, (b.Rows-1-j)*b.Cols+i
				out[a], out[z] = out[z], out[a]
			}
		}
	}
	if (b.Cols+b.Rows)%2 == 1 {
		if dark, ok := outerCornerDark(g, b, out); ok && !dark {
			reverse(out)
		}
		return out
	}
	first, last := out[0], out[len(out)-1]
	if last.U+last.V < first.U+first.V {
		reverse(out)
	}
	return out
}

func reverse(p []Pixel) {
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
}

// outerCornerDark reports whether the outer square diagonal to corner 0
// is darker than its neighbour along the first row.
func outerCornerDark(g Gray, b Board, p []Pixel) (dark, ok bool) {
	c0, c1, cn := p[0], p[1], p[b.Cols]
	ax, ay := c1.U-c0.U, c1.V-c0.V // one square along a row
	bx, by := cn.U-c0.U, cn.V-c0.V // one square to the next row
	corner, ok1 := g.at(c0.U-0.5*ax-0.5*bx, c0.V-0.5*ay-0.5*by)
	next, ok2 := g.at(c0.U+0.5*ax-0.5*bx, c0.V+0.5*ay-0.5*by)
	if !ok1 || !ok2 {
		return false, false
	}
	return corner < next, true
}

// CalibrateLens computes the camera's intrinsics and lens distortion from
// several views of board (OpenCV's calibrateCamera with its default
// flags: five distortion coefficients, free aspect ratio and principal
// point). Each view holds the board's corners as FindCorners returns
// them, on frames of w x h pixels. A view in the same pose as an earlier
// one (SameView) is left out. It refuses, with an error wrapping
// ErrDegenerate, fewer than MinViews different poses, boards that do not
// tilt at least MinTiltSpreadDeg against each other, and a fitted lens
// that fails Lens.Validate.
func CalibrateLens(views [][]Pixel, board Board, w, h int) (Lens, error) {
	if err := board.Validate(); err != nil {
		return Lens{}, err
	}
	if len(views) < MinViews {
		return Lens{}, fmt.Errorf("%w: calibrating a lens needs the board in at least %d views, got %d", ErrDegenerate, MinViews, len(views))
	}
	corners := board.Corners()
	for _, v := range views {
		if len(v) != len(corners) {
			return Lens{}, fmt.Errorf("%w: a view has %d corners, the board %d", ErrDegenerate, len(v), len(corners))
		}
	}
	// Repeated shots of one pose add weight, not information: the fit
	// then looks good and is wrong. Only the first of each pose counts.
	var distinct [][]Pixel
	for _, v := range views {
		if DuplicateOf(distinct, v) < 0 {
			distinct = append(distinct, v)
		}
	}
	if len(distinct) < MinViews {
		return Lens{}, fmt.Errorf("%w: the board is in only %d different pose(s) among the %d views (the others repeat a pose, every corner within %g px); a lens needs at least %d: move or tilt the board between photos",
			ErrDegenerate, len(distinct), len(views), SameViewPx, MinViews)
	}
	k, d, rms := calibrateViews(distinct, board, w, h)
	cam := Camera{Width: w, Height: h, Intrinsics: k, Distortion: d}
	if err := cam.Validate(); err != nil || math.IsNaN(rms) {
		return Lens{}, fmt.Errorf("calibration failed: %w", ErrDegenerate)
	}
	// The variety of the poses first: parallel boards are the usual
	// cause of a lens that is then also unusable, and the advice differs.
	spread, err := tiltSpreadDeg(cam, distinct, board)
	if err != nil {
		return Lens{}, err
	}
	if spread < MinTiltSpreadDeg {
		return Lens{}, fmt.Errorf("%w: the boards of the %d views are within %.1f degrees of parallel to each other, at least %g are needed to tell the focal length: tilt the board differently between photos",
			ErrDegenerate, len(distinct), spread, MinTiltSpreadDeg)
	}
	lens := Lens{Camera: cam, Source: SourceChessboard, RMSPx: rms, Views: len(distinct)}
	if err := lens.Validate(); err != nil {
		return Lens{}, fmt.Errorf("%w: the fitted lens is not usable (%v): the photos do not pin the lens down", ErrDegenerate, err)
	}
	return lens, nil
}

// calibrateViews runs OpenCV's calibrateCamera on the views.
func calibrateViews(views [][]Pixel, board Board, w, h int) (Intrinsics, Distortion, float64) {
	obj := gocv.NewPoints3fVector()
	defer obj.Close()
	img := gocv.NewPoints2fVector()
	defer img.Close()
	for _, v := range views {
		appendView(obj, img, corners3(board), v)
	}
	return calibrateCamera(obj, img, w, h)
}

// MinViews is the fewest views of the board CalibrateLens accepts.
const MinViews = 3

func corners3(b Board) []gocv.Point3f {
	var out []gocv.Point3f
	for _, c := range b.Corners() {
		// Object points in millimetres, as OpenCV's samples use.
		out = append(out, gocv.Point3f{X: float32(c.X * 10), Y: float32(c.Y * 10)})
	}
	return out
}

func appendView(obj gocv.Points3fVector, img gocv.Points2fVector, o []gocv.Point3f, v []Pixel) {
	ov := gocv.NewPoint3fVectorFromPoints(o)
	defer ov.Close()
	pts := make([]gocv.Point2f, len(v))
	for i, p := range v {
		pts[i] = gocv.Point2f{X: float32(p.U), Y: float32(p.V)}
	}
	iv := gocv.NewPoint2fVectorFromPoints(pts)
	defer iv.Close()
	obj.Append(ov)
	img.Append(iv)
}

// calibrateCamera calls OpenCV and copies the results out of the Mats.
func calibrateCamera(obj gocv.Points3fVector, img gocv.Points2fVector, w, h int) (Intrinsics, Distortion, float64) {
	k := gocv.NewMat()
	defer k.Close()
	d := gocv.NewMat()
	defer d.Close()
	rv := gocv.NewMat()
	defer rv.Close()
	tv := gocv.NewMat()
	defer tv.Close()
	rms := gocv.CalibrateCamera(obj, img, image.Pt(w, h), &k, &d, &rv, &tv, 0)
	if k.Rows() != 3 || k.Cols() != 3 || d.Total() < 5 {
		return Intrinsics{}, Distortion{}, math.NaN()
	}
	in := Intrinsics{FX: k.GetDoubleAt(0, 0), FY: k.GetDoubleAt(1, 1), CX: k.GetDoubleAt(0, 2), CY: k.GetDoubleAt(1, 2)}
	dd, err := d.DataPtrFloat64()
	if err != nil || len(dd) < 5 {
		return Intrinsics{}, Distortion{}, math.NaN()
	}
	return in, Distortion{dd[0], dd[1], dd[2], dd[3], dd[4]}, rms
}
