package calibration

import (
	"fmt"
	"math"

	"tableref/models"
)

// Where a camera model comes from (Lens.Source).
const (
	// SourceChessboard: calibrated from several views of a chessboard.
	SourceChessboard = "chessboard"
	// SourceEstimated: no calibration; a lens without distortion, the
	// principal point at the centre of the frame and a focal length
	// estimated from the table points (or a typical webcam's).
	SourceEstimated = "estimated"
	// SourceSynthetic: the exact camera of a rendered scene.
	SourceSynthetic = "synthetic"
)

// Lens is a camera model with where it came from and how well it fits.
type Lens struct {
	Camera
	Source string
	// RMSPx is the RMS reprojection error of the calibration in pixels,
	// over Views views (0 when not calibrated from views).
	RMSPx float64
	Views int
}

// Calibration maps camera pixels to table centimetres and back: a lens
// and the table plane seen through it.
type Calibration struct {
	Lens Lens
	// Board is the chessboard that defined the table frame, nil when the
	// user gave table points.
	Board *Board
	// Pose places the table in front of the camera.
	Pose  Pose
	Plane Plane
	// Quality says how good the mapping is.
	Quality Quality
}

// Quality reports how well a calibration fits and what to expect of it.
type Quality struct {
	// RMSPx is the lens calibration's RMS reprojection error in pixels.
	RMSPx float64
	// PlaneRMSPx is the RMS reprojection error of the table points
	// (board corners or user points) in pixels, over PlanePoints points.
	PlaneRMSPx  float64
	PlanePoints int
	// Scale is the mean measured board square divided by the declared one
	// (1 is perfect), ScaleX and ScaleY the same along rows and columns.
	// 0 without a board. It is a check of the fit, not of the declared
	// size: the lens and the pose are fitted to that size, so Scale reads
	// the same whatever size is declared, and a print stretched 3 % along
	// its columns gives ScaleX and ScaleY 0.2 % apart.
	Scale, ScaleX, ScaleY float64
	// Uncertainty is the expected error of one measured point in mm.
	Uncertainty Uncertainty
	// BoardWhite is the grey level (0-255) of the board's white squares
	// in the table plane's photograph (BoardWhite), 0 when not measured:
	// how the camera was exposed under the game's light.
	BoardWhite float64
	// BoardWhiteRGB is the same, red, green and blue apart (zeros when
	// not measured): the colour of the game's light as the camera sees it.
	BoardWhiteRGB [3]float64
}

// Uncertainty is the expected error (one standard deviation, radial, in
// millimetres) of a point measured on the table, propagated from the
// corner error: the error of the fitted pose plus a pixel error of one
// PlaneRMSPx on the point itself. Centre is at the middle of the frame,
// Edge the worst of the middles of its four sides and Corner the worst of
// its four corners (5 % inside the frame), counting only pixels that see
// the table.
type Uncertainty struct {
	CentreMM, EdgeMM, CornerMM float64
}

// TableFromImage returns the table point seen at pixel (u, v) on a
// surface height cm above the table: 0 for the table itself, 0.2 for the
// top face of a 2 mm disk lying on the table, 0.4 for one lying on such a
// disk.
func (c *Calibration) TableFromImage(u, v float64, height models.Centimetres) (models.TablePoint, error) {
	if !finite([]float64{u, v, float64(height)}) {
		return models.TablePoint{}, fmt.Errorf("pixel (%g, %g) at height %g cm: %w (not a finite number)", u, v, float64(height), ErrOffTable)
	}
	q := c.Lens.Undistorted(Pixel{u, v})
	// Undistort stops after a fixed number of steps whether or not it has
	// converged (far outside the frame, or past a fold of the lens): the
	// ray found must lead back to the pixel, or there is none.
	if back := c.Lens.Distorted(q); !(math.Hypot(back.U-u, back.V-v) < maxUndistortErrPx) {
		return models.TablePoint{}, fmt.Errorf("pixel (%.1f, %.1f): %w (the lens model has no ray for it)", u, v, ErrOffTable)
	}
	return c.Plane.TableFromUndistorted(q, height)
}

// maxUndistortErrPx is how far, in pixels, an undistorted pixel may land
// from the one it came from when distorted again: far below any corner
// or detection error.
const maxUndistortErrPx = 1e-3

// ImageFromTable returns the pixel where the camera sees table point p
// raised height cm above the table.
func (c *Calibration) ImageFromTable(p models.TablePoint, height models.Centimetres) (Pixel, error) {
	q, err := c.Plane.UndistortedFromTable(p, height)
	if err != nil {
		return Pixel{}, err
	}
	px := c.Lens.Distorted(q)
	if !finite([]float64{px.U, px.V}) {
		return Pixel{}, fmt.Errorf("table point (%.1f, %.1f) cm: %w (no finite pixel)", float64(p.X), float64(p.Y), ErrOffTable)
	}
	return px, nil
}

// FromBoard calibrates the table plane from a chessboard lying flat on the
// table, whose inner corners are seen at corners (OpenCV's order, see
// Board.Corners) through lens.
func FromBoard(lens Lens, board Board, corners []Pixel) (*Calibration, error) {
	if err := board.Validate(); err != nil {
		return nil, err
	}
	if err := lens.Validate(); err != nil {
		return nil, err
	}
	if len(corners) != board.Cols*board.Rows {
		return nil, fmt.Errorf("%w: %d corners for a board of %dx%d", ErrDegenerate, len(corners), board.Cols, board.Rows)
	}
	c, fit, err := fromPoints(lens, corners, board.Corners(), true)
	if err != nil {
		return nil, err
	}
	c.Board = &board
	c.Quality.Scale, c.Quality.ScaleX, c.Quality.ScaleY = scaleCheck(c, board, corners)
	c.Quality.Uncertainty = uncertainty(c, fit)
	return c, nil
}

// FromPoints calibrates the table plane from four or more pixels whose
// table coordinates (cm) the user gives. lens is the camera's calibrated
// lens; when nil, a lens is estimated for a w x h frame (see
// SourceEstimated) and the table points map exactly onto the pixels.
func FromPoints(lens *Lens, w, h int, img []Pixel, table []models.TablePoint) (*Calibration, error) {
	if len(img) != len(table) {
		return nil, fmt.Errorf("%w: %d pixels but %d table points", ErrDegenerate, len(img), len(table))
	}
	if len(img) < 4 {
		return nil, fmt.Errorf("%w: the table plane needs at least 4 points, got %d", ErrDegenerate, len(img))
	}
	var l Lens
	if lens != nil {
		l = *lens
		if w != 0 && h != 0 && (l.Width != w || l.Height != h) {
			return nil, fmt.Errorf("%w: the lens was calibrated for %dx%d frames, the points are on a %dx%d frame", ErrMismatch, l.Width, l.Height, w, h)
		}
	} else {
		var err error
		if l, err = estimateLens(w, h, img, table); err != nil {
			return nil, err
		}
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	c, fit, err := fromPoints(l, img, table, lens != nil)
	if err != nil {
		return nil, err
	}
	c.Quality.Uncertainty = uncertainty(c, fit)
	return c, nil
}

// estimateLens guesses a lens for an uncalibrated camera.
func estimateLens(w, h int, img []Pixel, table []models.TablePoint) (Lens, error) {
	cam := IdealCamera(w, h, typicalHFOV)
	if err := cam.Validate(); err != nil {
		return Lens{}, err
	}
	src := make([]point2, len(img))
	dst := make([]point2, len(img))
	for i := range img {
		src[i] = point2{float64(table[i].X), float64(table[i].Y)}
		dst[i] = point2{img[i].U, img[i].V}
	}
	g, err := fitHomography(src, dst)
	if err != nil {
		return Lens{}, err
	}
	if f, ok := estimateFocal(g, Pixel{cam.CX, cam.CY}); ok && f > 0.3*float64(w) && f < 5*float64(w) {
		cam.FX, cam.FY = f, f
	}
	return Lens{Camera: cam, Source: SourceEstimated}, nil
}

// typicalHFOV is the horizontal field of view (degrees) assumed for a
// webcam when nothing better is known.
const typicalHFOV = 65

// fromPoints fits the pose; with a trusted lens the table homography is
// the pose's, otherwise the direct fit through the points.
func fromPoints(lens Lens, img []Pixel, table []models.TablePoint, trusted bool) (*Calibration, poseFit, error) {
	fit, g, err := poseFromPoints(lens.Camera, img, table)
	if err != nil {
		return nil, poseFit{}, err
	}
	if trusted {
		g = fit.Pose.Homography(lens.Intrinsics)
	}
	h, ok := g.Inverse()
	if !ok {
		return nil, poseFit{}, fmt.Errorf("%w: the table homography is singular", ErrDegenerate)
	}
	plane, err := newPlane(h, fit.Pose.Centre(), Pixel{lens.CX, lens.CY})
	if err != nil {
		return nil, poseFit{}, err
	}
	c := &Calibration{Lens: lens, Pose: fit.Pose, Plane: plane}
	c.Quality.RMSPx = lens.RMSPx
	c.Quality.PlaneRMSPx = planeRMS(c, img, table)
	c.Quality.PlanePoints = len(img)
	return c, fit, nil
}

// planeRMS is the RMS distance in pixels between where the calibration
// sees the table points and where they were found.
func planeRMS(c *Calibration, img []Pixel, table []models.TablePoint) float64 {
	var s float64
	for i := range img {
		p, err := c.ImageFromTable(table[i], 0)
		if err != nil {
			return math.Inf(1)
		}
		s += (p.U-img[i].U)*(p.U-img[i].U) + (p.V-img[i].V)*(p.V-img[i].V)
	}
	return math.Sqrt(s / float64(len(img)))
}

// scaleCheck maps the found corners onto the table and compares the
// spacing of neighbours with the declared square size.
func scaleCheck(c *Calibration, b Board, corners []Pixel) (all, sx, sy float64) {
	pts := make([]models.TablePoint, len(corners))
	for i, p := range corners {
		t, err := c.TableFromImage(p.U, p.V, 0)
		if err != nil {
			return 0, 0, 0
		}
		pts[i] = t
	}
	var dx, dy float64
	var nx, ny int
	for j := range b.Rows {
		for i := range b.Cols {
			k := j*b.Cols + i
			if i+1 < b.Cols {
				dx += dist(pts[k], pts[k+1])
				nx++
			}
			if j+1 < b.Rows {
				dy += dist(pts[k], pts[k+b.Cols])
				ny++
			}
		}
	}
	sq := b.SquareMM / 10
	return (dx + dy) / float64(nx+ny) / sq, dx / float64(nx) / sq, dy / float64(ny) / sq
}

func dist(a, b models.TablePoint) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}
