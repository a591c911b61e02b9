package calibration

import (
	"errors"
	"fmt"
	"math"
)

// Pixel is a point in the image frame, in pixels: u to the right and v
// down from the top-left corner of the frame.
type Pixel struct {
	U, V float64
}

// Intrinsics is the pinhole part of the camera model, in pixels: focal
// lengths FX, FY and principal point CX, CY (OpenCV's camera matrix
// [[FX 0 CX] [0 FY CY] [0 0 1]]).
type Intrinsics struct {
	FX, FY, CX, CY float64
}

// Distortion is OpenCV's lens distortion model with five coefficients
// (k1, k2, p1, p2, k3): radial K1, K2, K3 and tangential P1, P2. The zero
// value is a lens without distortion.
type Distortion struct {
	K1, K2, P1, P2, K3 float64
}

// Camera is a calibrated camera: the size of its frames in pixels, its
// intrinsics and its lens distortion.
type Camera struct {
	Width, Height int
	Intrinsics
	Distortion
}

// ErrCamera marks a camera model that cannot be used (a zero or negative
// focal length, a frame of no size, a value that is not a number).
var ErrCamera = errors.New("invalid camera model")

// Validate reports whether the camera can map points.
func (c Camera) Validate() error {
	if c.Width <= 0 || c.Height <= 0 {
		return fmt.Errorf("%w: frame size %dx%d", ErrCamera, c.Width, c.Height)
	}
	for _, v := range []float64{c.FX, c.FY, c.CX, c.CY, c.K1, c.K2, c.P1, c.P2, c.K3} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: a parameter is not a finite number", ErrCamera)
		}
	}
	if c.FX <= 0 || c.FY <= 0 {
		return fmt.Errorf("%w: focal lengths %.4g, %.4g px must be positive", ErrCamera, c.FX, c.FY)
	}
	return nil
}

// IdealCamera returns a camera without distortion whose principal point is
// the centre of a w x h frame and whose horizontal field of view is hfovDeg
// degrees.
func IdealCamera(w, h int, hfovDeg float64) Camera {
	f := float64(w) / 2 / math.Tan(hfovDeg*math.Pi/360)
	return Camera{Width: w, Height: h, Intrinsics: Intrinsics{FX: f, FY: f, CX: float64(w) / 2, CY: float64(h) / 2}}
}

// Distort applies the lens distortion to normalised image coordinates
// (x, y) = (X/Z, Y/Z) and returns the distorted normalised coordinates.
func (d Distortion) Distort(x, y float64) (float64, float64) {
	r2 := x*x + y*y
	radial := 1 + r2*(d.K1+r2*(d.K2+r2*d.K3))
	xd := x*radial + 2*d.P1*x*y + d.P2*(r2+2*x*x)
	yd := y*radial + d.P1*(r2+2*y*y) + 2*d.P2*x*y
	return xd, yd
}

// IsZero reports whether d is a lens without distortion.
func (d Distortion) IsZero() bool { return d == Distortion{} }

// Undistort inverts Distort by Newton's method: it returns the normalised
// coordinates whose distortion is (xd, yd).
func (d Distortion) Undistort(xd, yd float64) (float64, float64) {
	if d.IsZero() {
		return xd, yd
	}
	x, y := xd, yd
	for range 30 {
		fx, fy := d.Distort(x, y)
		ex, ey := fx-xd, fy-yd
		if ex*ex+ey*ey < 1e-24 {
			break
		}
		// Numerical Jacobian of Distort at (x, y).
		const h = 1e-7
		ax, ay := d.Distort(x+h, y)
		bx, by := d.Distort(x, y+h)
		j11, j21 := (ax-fx)/h, (ay-fy)/h
		j12, j22 := (bx-fx)/h, (by-fy)/h
		det := j11*j22 - j12*j21
		if math.Abs(det) < 1e-12 {
			break
		}
		x -= (j22*ex - j12*ey) / det
		y -= (-j21*ex + j11*ey) / det
	}
	return x, y
}

// Normalise returns the undistorted normalised coordinates (X/Z, Y/Z) of
// the ray through pixel p.
func (c Camera) Normalise(p Pixel) (float64, float64) {
	xd := (p.U - c.CX) / c.FX
	yd := (p.V - c.CY) / c.FY
	return c.Distortion.Undistort(xd, yd)
}

// Pixel returns the pixel where the ray with normalised coordinates
// (x, y) = (X/Z, Y/Z) lands, lens distortion included.
func (c Camera) Pixel(x, y float64) Pixel {
	xd, yd := c.Distortion.Distort(x, y)
	return Pixel{U: c.FX*xd + c.CX, V: c.FY*yd + c.CY}
}

// Undistorted returns where pixel p would be seen by the same camera
// without lens distortion.
func (c Camera) Undistorted(p Pixel) Pixel {
	x, y := c.Normalise(p)
	return Pixel{U: c.FX*x + c.CX, V: c.FY*y + c.CY}
}

// Distorted is the inverse of Undistorted.
func (c Camera) Distorted(p Pixel) Pixel {
	return c.Pixel((p.U-c.CX)/c.FX, (p.V-c.CY)/c.FY)
}

// Project returns the pixel where the camera sees point p given in camera
// coordinates (x right, y down, z forward, any unit), and false when the
// point is not in front of the camera.
func (c Camera) Project(p Vec3) (Pixel, bool) {
	if p[2] <= 1e-12 {
		return Pixel{}, false
	}
	return c.Pixel(p[0]/p[2], p[1]/p[2]), true
}
