package calibration

import (
	"fmt"
	"math"
)

// Validate reports whether the lens is one a camera can have: the camera
// model maps points (Camera.Validate), the focal lengths lie between a
// twentieth and twenty times the frame's larger side (fisheye to long
// telephoto), no distortion coefficient exceeds 50 in size, and the
// radial distortion keeps the order of radii out to the frame's corners.
// CalibrateLens and FromBoard refuse a lens that fails it, and so does
// Parse, so that a lens that is computed can also be saved and loaded.
// Errors wrap ErrCamera.
func (l Lens) Validate() error {
	if err := l.Camera.Validate(); err != nil {
		return err
	}
	side := float64(max(l.Width, l.Height))
	for _, f := range []float64{l.FX, l.FY} {
		if f < side/20 || f > 20*side {
			return fmt.Errorf("%w: a focal length of %g pixels for %dx%d frames is not a camera's", ErrCamera, f, l.Width, l.Height)
		}
	}
	for i, c := range []float64{l.K1, l.K2, l.P1, l.P2, l.K3} {
		if math.Abs(c) > 50 {
			return fmt.Errorf("%w: distortion coefficient %d is %g: no lens bends that much", ErrCamera, i+1, c)
		}
	}
	return l.checkFold()
}

// checkFold refuses a radial distortion that folds the picture back on
// itself within the frame's reach: the distorted radius
// rd(r) = r (1 + k1 r² + k2 r⁴ + k3 r⁶) must rise steadily for every
// undistorted radius r out to the frame's farthest corner's (normalised
// units). A strong barrel lens may still fold a little further out (its
// distorted radius peaking short of the corner's): that lens is kept, as
// the frame's centre and most of the table are measured right with it,
// and the few corner pixels past its fold have no ray, which
// Calibration.TableFromImage reports as off the table. Refusing it would
// refuse a whole camera (2 of 3,000 rendered hard-tier lenses) for its
// corners.
func (l Lens) checkFold() error {
	rMax := math.Hypot(max(l.CX, float64(l.Width)-l.CX)/l.FX, max(l.CY, float64(l.Height)-l.CY)/l.FY)
	prev := 0.0
	for i := 1; i <= 100; i++ {
		r := rMax * float64(i) / 100
		r2 := r * r
		rd := r * (1 + l.K1*r2 + l.K2*r2*r2 + l.K3*r2*r2*r2)
		if rd <= prev {
			return fmt.Errorf("%w: the distortion (k1 %g, k2 %g, k3 %g) folds the picture back within the frame", ErrCamera, l.K1, l.K2, l.K3)
		}
		prev = rd
	}
	return nil
}

// SameViewPx is how far, in pixels, every corner of a view may lie from
// the same corner of another view for the two to count as one pose of
// the board. Re-taking a photo of a board that has not moved moves its
// corners by image noise, about a twentieth of a pixel; a board moved by
// hand moves them by tens of pixels.
const SameViewPx = 2.0

// SameView reports whether views a and b (corners in the same order)
// show the board in the same pose: every corner within SameViewPx.
func SameView(a, b []Pixel) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if !(math.Hypot(a[i].U-b[i].U, a[i].V-b[i].V) <= SameViewPx) {
			return false
		}
	}
	return true
}

// DuplicateOf returns the index of the first of views that shows the
// board in the same pose as v (SameView), or -1.
func DuplicateOf(views [][]Pixel, v []Pixel) int {
	for i, w := range views {
		if SameView(w, v) {
			return i
		}
	}
	return -1
}

// MinTiltSpreadDeg is the smallest angle, in degrees, that the boards of
// a lens calibration must make with each other: the largest angle between
// the normals of any two views' boards (poses fitted through the
// calibrated focal lengths and principal point). Boards all parallel to each other leave the focal
// length undetermined (Zhang, "A flexible new technique for camera
// calibration", 2000, section 3.3): the fit then finds some focal length
// and a small reprojection error, and measures the table wrongly. The
// OpenCV sample photos spread over about 60 degrees.
const MinTiltSpreadDeg = 10.0

// tiltSpreadDeg returns the largest angle in degrees between the board
// normals of two views, their poses fitted through cam's intrinsics
// without its lens distortion: distortion changes the normals little, and
// the fitted distortion may be unusable when the poses are too alike.
func tiltSpreadDeg(cam Camera, views [][]Pixel, board Board) (float64, error) {
	table := board.Corners()
	normals := make([]Vec3, 0, len(views))
	for i, v := range views {
		fit, _, err := poseFromPoints(Camera{Width: cam.Width, Height: cam.Height, Intrinsics: cam.Intrinsics}, v, table)
		if err != nil {
			return 0, fmt.Errorf("the pose of view %d: %w", i+1, err)
		}
		r := fit.Pose.R
		normals = append(normals, Vec3{r[0][2], r[1][2], r[2][2]})
	}
	var spread float64
	for i := range normals {
		for j := i + 1; j < len(normals); j++ {
			a, b := normals[i], normals[j]
			c := (a[0]*b[0] + a[1]*b[1] + a[2]*b[2]) / (norm3(a) * norm3(b))
			spread = max(spread, math.Acos(max(-1, min(1, c)))*180/math.Pi)
		}
	}
	return spread, nil
}

func norm3(v Vec3) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }
