package board9

import (
	"errors"
	"fmt"
	"math"

	"tableref/calibration"
)

// point is a point of the board plane (squares) or of the image (pixels).
type point struct{ X, Y float64 }

// homography maps board points to image points: [u v w] = H [x y 1].
type homography [3][3]float64

// apply maps p through h; false when p maps to infinity.
func (h homography) apply(p point) (point, bool) {
	w := h[2][0]*p.X + h[2][1]*p.Y + h[2][2]
	if math.Abs(w) < 1e-12 {
		return point{}, false
	}
	return point{(h[0][0]*p.X + h[0][1]*p.Y + h[0][2]) / w, (h[1][0]*p.X + h[1][1]*p.Y + h[1][2]) / w}, true
}

// inverse returns h's inverse; false when h is singular.
func (h homography) inverse() (homography, bool) {
	a := h
	det := a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) - a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) + a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	if math.Abs(det) < 1e-15 {
		return homography{}, false
	}
	var r homography
	r[0][0] = (a[1][1]*a[2][2] - a[1][2]*a[2][1]) / det
	r[0][1] = (a[0][2]*a[2][1] - a[0][1]*a[2][2]) / det
	r[0][2] = (a[0][1]*a[1][2] - a[0][2]*a[1][1]) / det
	r[1][0] = (a[1][2]*a[2][0] - a[1][0]*a[2][2]) / det
	r[1][1] = (a[0][0]*a[2][2] - a[0][2]*a[2][0]) / det
	r[1][2] = (a[0][2]*a[1][0] - a[0][0]*a[1][2]) / det
	r[2][0] = (a[1][0]*a[2][1] - a[1][1]*a[2][0]) / det
	r[2][1] = (a[0][1]*a[2][0] - a[0][0]*a[2][1]) / det
	r[2][2] = (a[0][0]*a[1][1] - a[0][1]*a[1][0]) / det
	return r, true
}

var errDegenerate = errors.New("the points do not fix a homography (fewer than 4, or three in a line)")

// fitHomography returns the homography taking src to dst in the least
// squares sense (calibration.FitHomography: the normalised direct linear
// transform, h33 = 1).
func fitHomography(src, dst []point) (homography, error) {
	if len(src) < 4 || len(src) != len(dst) {
		return homography{}, errDegenerate
	}
	s := make([][2]float64, len(src))
	d := make([][2]float64, len(dst))
	for i := range src {
		s[i] = [2]float64{src[i].X, src[i].Y}
		d[i] = [2]float64{dst[i].X, dst[i].Y}
	}
	h, err := calibration.FitHomography(s, d)
	if err != nil {
		return homography{}, fmt.Errorf("%w: %v", errDegenerate, err)
	}
	return homography(h), nil
}

func hypot(a, b float64) float64 { return math.Hypot(a, b) }
