package calibration

import (
	"errors"
	"fmt"
	"math"

	"tableref/models"
)

// ErrOffTable marks a pixel whose ray does not meet the table (above the
// horizon) or a table point the camera cannot see (behind it, or a height
// at or above the camera).
var ErrOffTable = errors.New("not on the table")

// Board is a chessboard: Cols x Rows inner corners, squares SquareMM
// millimetres wide. A board printed with 10 x 7 squares has 9 x 6 inner
// corners.
type Board struct {
	Cols     int     `json:"cols"`
	Rows     int     `json:"rows"`
	SquareMM float64 `json:"square_mm"`
}

// Validate reports whether the board can be used.
func (b Board) Validate() error {
	// OpenCV's chessboard finder needs more than 2 inner corners a side
	// (below that it throws, and the program aborts).
	if b.Cols < 3 || b.Rows < 3 {
		return fmt.Errorf("board %dx%d: a board needs at least 3x3 inner corners (4x4 squares)", b.Cols, b.Rows)
	}
	if b.Cols > 100 || b.Rows > 100 {
		return fmt.Errorf("board %dx%d: more than 100 inner corners a side", b.Cols, b.Rows)
	}
	// A square under a millimetre is no printed board: OpenCV's
	// calibration then degenerates (or throws, and the program aborts).
	if !(b.SquareMM >= 1) || b.SquareMM > 1000 {
		return fmt.Errorf("board square %g mm: want a size between 1 and 1000 mm", b.SquareMM)
	}
	return nil
}

// String returns "9x6 inner corners, 30 mm squares".
func (b Board) String() string {
	return fmt.Sprintf("%dx%d inner corners, %g mm squares", b.Cols, b.Rows, b.SquareMM)
}

// Corners returns the table-frame positions of the inner corners in
// OpenCV's order: row by row, Cols corners a row; corner 0 is the origin,
// x runs along a row and y from row to row.
func (b Board) Corners() []models.TablePoint {
	s := models.Centimetres(b.SquareMM / 10)
	pts := make([]models.TablePoint, 0, b.Cols*b.Rows)
	for j := range b.Rows {
		for i := range b.Cols {
			pts = append(pts, models.TablePoint{X: models.Centimetres(i) * s, Y: models.Centimetres(j) * s})
		}
	}
	return pts
}

// Plane maps pixels to the table plane and back at any height above it.
type Plane struct {
	// H maps undistorted pixels (u, v, 1) to table points (x, y, w) in cm
	// on the table surface.
	H Mat3
	// Eye is the point of the table straight below the camera's centre,
	// and EyeHeight the height of the camera above the table, in cm.
	Eye       models.TablePoint
	EyeHeight models.Centimetres
	// sign is the sign of the homogeneous w of H for pixels that see the
	// table; 0 means "take the sign at the principal point".
	sign float64
}

// newPlane builds a plane from the homography h and the camera centre c
// in the table frame; pp is a pixel known to see the table.
func newPlane(h Mat3, c Vec3, pp Pixel) (Plane, error) {
	if _, ok := h.Inverse(); !ok {
		return Plane{}, fmt.Errorf("%w: the table homography is singular", ErrDegenerate)
	}
	w := h.MulVec(Vec3{pp.U, pp.V, 1})[2]
	if w == 0 || math.IsNaN(w) {
		return Plane{}, fmt.Errorf("%w: the image centre does not see the table", ErrDegenerate)
	}
	p := Plane{H: h, Eye: models.TablePoint{X: models.Centimetres(c[0]), Y: models.Centimetres(c[1])},
		EyeHeight: models.Centimetres(math.Abs(c[2])), sign: math.Copysign(1, w)}
	if !(p.EyeHeight > 0) {
		return Plane{}, fmt.Errorf("%w: the camera lies in the table plane", ErrDegenerate)
	}
	return p, nil
}

// TableFromUndistorted returns the table point seen at undistorted pixel
// q on a surface height cm above the table (the top face of a disk).
func (p Plane) TableFromUndistorted(q Pixel, height models.Centimetres) (models.TablePoint, error) {
	// A NaN compares false with everything and would slip through the
	// checks below as a point "on the table".
	if !finite([]float64{q.U, q.V, float64(height)}) {
		return models.TablePoint{}, fmt.Errorf("pixel (%g, %g) at height %g cm: %w (not a finite number)", q.U, q.V, float64(height), ErrOffTable)
	}
	v := p.H.MulVec(Vec3{q.U, q.V, 1})
	if v[2]*p.sign <= 1e-12*math.Abs(p.sign) || math.Abs(v[2]) < 1e-15 {
		return models.TablePoint{}, fmt.Errorf("pixel (%.1f, %.1f): %w (above the horizon)", q.U, q.V, ErrOffTable)
	}
	if height >= p.EyeHeight {
		return models.TablePoint{}, fmt.Errorf("height %.1f cm: %w (the camera is %.1f cm high)", float64(height), ErrOffTable, float64(p.EyeHeight))
	}
	gx, gy := v[0]/v[2], v[1]/v[2]
	f := float64(height / p.EyeHeight)
	x, y := gx+(float64(p.Eye.X)-gx)*f, gy+(float64(p.Eye.Y)-gy)*f
	if !finite([]float64{x, y}) {
		return models.TablePoint{}, fmt.Errorf("pixel (%.1f, %.1f): %w (at the horizon)", q.U, q.V, ErrOffTable)
	}
	return models.TablePoint{X: models.Centimetres(x), Y: models.Centimetres(y)}, nil
}

// UndistortedFromTable is the inverse of TableFromUndistorted.
func (p Plane) UndistortedFromTable(t models.TablePoint, height models.Centimetres) (Pixel, error) {
	if !finite([]float64{float64(t.X), float64(t.Y), float64(height)}) {
		return Pixel{}, fmt.Errorf("table point (%g, %g) cm at height %g cm: %w (not a finite number)", float64(t.X), float64(t.Y), float64(height), ErrOffTable)
	}
	if height >= p.EyeHeight {
		return Pixel{}, fmt.Errorf("height %.1f cm: %w (the camera is %.1f cm high)", float64(height), ErrOffTable, float64(p.EyeHeight))
	}
	// The ray from the eye through the raised point meets the table at g.
	k := float64(p.EyeHeight / (p.EyeHeight - height))
	gx := float64(p.Eye.X) + (float64(t.X)-float64(p.Eye.X))*k
	gy := float64(p.Eye.Y) + (float64(t.Y)-float64(p.Eye.Y))*k
	inv, ok := p.H.Inverse()
	if !ok {
		return Pixel{}, fmt.Errorf("%w: the table homography is singular", ErrDegenerate)
	}
	v := inv.MulVec(Vec3{gx, gy, 1})
	// A pixel that sees the table has w of the same sign as p.sign; the
	// inverse's w is the reciprocal of it up to a positive factor.
	if v[2]*p.sign <= 0 {
		return Pixel{}, fmt.Errorf("table point (%.1f, %.1f) cm: %w (behind the camera)", float64(t.X), float64(t.Y), ErrOffTable)
	}
	px := Pixel{U: v[0] / v[2], V: v[1] / v[2]}
	if !finite([]float64{px.U, px.V}) {
		return Pixel{}, fmt.Errorf("table point (%.1f, %.1f) cm: %w (at the horizon)", float64(t.X), float64(t.Y), ErrOffTable)
	}
	return px, nil
}

// poseFromPoints fits the camera pose to table points seen at img and
// returns it with the direct homography from table points to undistorted
// pixels.
func poseFromPoints(cam Camera, img []Pixel, table []models.TablePoint) (poseFit, Mat3, error) {
	if len(img) != len(table) {
		return poseFit{}, Mat3{}, fmt.Errorf("%w: %d pixels but %d table points", ErrDegenerate, len(img), len(table))
	}
	und := make([]point2, len(img))
	obj := make([]point2, len(img))
	for i := range img {
		q := cam.Undistorted(img[i])
		und[i] = point2{q.U, q.V}
		obj[i] = point2{float64(table[i].X), float64(table[i].Y)}
	}
	g, err := fitHomography(obj, und) // table -> undistorted pixels
	if err != nil {
		return poseFit{}, Mat3{}, err
	}
	p0, err := poseFromHomography(g, cam.Intrinsics)
	if err != nil {
		return poseFit{}, Mat3{}, err
	}
	fit, err := refinePose(cam, p0, obj, img)
	if err != nil {
		return poseFit{}, Mat3{}, err
	}
	return fit, g, nil
}

// estimateFocal estimates the focal length in pixels of a camera without
// distortion, square pixels and its principal point at pp, from g, a
// homography from the table plane to pixels. It returns false when the
// view is too close to face-on to tell.
func estimateFocal(g Mat3, pp Pixel) (float64, bool) {
	t := Mat3{{1, 0, -pp.U}, {0, 1, -pp.V}, {0, 0, 1}}
	h := t.Mul(g)
	h1, h2 := h.col(0), h.col(1)
	var num, den float64
	// Orthogonality: h1' W h2 = 0 with W = diag(1/f², 1/f², 1).
	a := -(h1[0]*h2[0] + h1[1]*h2[1])
	b := h1[2] * h2[2]
	// Equal norms: h1' W h1 = h2' W h2.
	c := -(h1[0]*h1[0] + h1[1]*h1[1] - h2[0]*h2[0] - h2[1]*h2[1])
	d := h1[2]*h1[2] - h2[2]*h2[2]
	// Least squares for s = f² in a = b s, c = d s.
	num, den = a*b+c*d, b*b+d*d
	if !(den > 0) || !(num/den > 0) {
		return 0, false
	}
	return math.Sqrt(num / den), true
}
