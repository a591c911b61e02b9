package calibration

import (
	"errors"
	"fmt"
	"math"
)

// ErrDegenerate marks point sets from which no mapping can be computed:
// fewer than four points, points all on one line, repeated points.
var ErrDegenerate = errors.New("degenerate points")

// point2 is a plain 2-D point used by the fitting code.
type point2 struct{ X, Y float64 }

// Apply maps (x, y) through the homography h and returns false when the
// point maps to infinity.
func (m Mat3) Apply(x, y float64) (float64, float64, bool) {
	v := m.MulVec(Vec3{x, y, 1})
	if math.Abs(v[2]) < 1e-15 {
		return 0, 0, false
	}
	return v[0] / v[2], v[1] / v[2], true
}

// normaliser returns the similarity that moves the centroid of pts to the
// origin and makes their mean distance from it sqrt(2) (Hartley).
func normaliser(pts []point2) Mat3 {
	var cx, cy float64
	for _, p := range pts {
		cx += p.X
		cy += p.Y
	}
	n := float64(len(pts))
	cx, cy = cx/n, cy/n
	var d float64
	for _, p := range pts {
		d += math.Hypot(p.X-cx, p.Y-cy)
	}
	d /= n
	if d == 0 {
		d = 1
	}
	s := math.Sqrt2 / d
	return Mat3{{s, 0, -s * cx}, {0, s, -s * cy}, {0, 0, 1}}
}

// FitHomography returns the homography H with H src ~ dst for points given
// as [x, y] pairs (at least four, not on one line), by the normalised
// direct linear transform, scaled so that H[2][2] = 1. It is the one
// homography fit of the project: the board reader and the tracker use it
// too.
func FitHomography(src, dst [][2]float64) (Mat3, error) {
	s := make([]point2, len(src))
	for i, p := range src {
		s[i] = point2{p[0], p[1]}
	}
	d := make([]point2, len(dst))
	for i, p := range dst {
		d[i] = point2{p[0], p[1]}
	}
	h, err := fitHomography(s, d)
	if err != nil {
		return Mat3{}, err
	}
	if math.Abs(h[2][2]) < 1e-15 {
		return Mat3{}, fmt.Errorf("%w: the homography sends points to infinity", ErrDegenerate)
	}
	k := 1 / h[2][2]
	for i := range 3 {
		for j := range 3 {
			h[i][j] *= k
		}
	}
	return h, nil
}

// fitHomography returns the homography H with H src ~ dst, by the
// normalised direct linear transform (least squares with H[2][2] = 1 in
// the normalised frames).
func fitHomography(src, dst []point2) (Mat3, error) {
	if len(src) != len(dst) {
		return Mat3{}, fmt.Errorf("%w: %d source points but %d destination points", ErrDegenerate, len(src), len(dst))
	}
	if len(src) < 4 {
		return Mat3{}, fmt.Errorf("%w: a homography needs at least 4 point pairs, got %d", ErrDegenerate, len(src))
	}
	if err := checkSpread(src); err != nil {
		return Mat3{}, err
	}
	if err := checkSpread(dst); err != nil {
		return Mat3{}, err
	}
	ns, nd := normaliser(src), normaliser(dst)
	ata := make([][]float64, 8)
	for i := range ata {
		ata[i] = make([]float64, 8)
	}
	atb := make([]float64, 8)
	for i := range src {
		x, y, _ := ns.Apply(src[i].X, src[i].Y)
		u, v, _ := nd.Apply(dst[i].X, dst[i].Y)
		rows := [2][8]float64{
			{x, y, 1, 0, 0, 0, -u * x, -u * y},
			{0, 0, 0, x, y, 1, -v * x, -v * y},
		}
		rhs := [2]float64{u, v}
		for r := range 2 {
			for a := range 8 {
				atb[a] += rows[r][a] * rhs[r]
				for b := range 8 {
					ata[a][b] += rows[r][a] * rows[r][b]
				}
			}
		}
	}
	h, err := Solve(ata, atb)
	if err != nil {
		return Mat3{}, fmt.Errorf("%w: the points do not determine a homography", ErrDegenerate)
	}
	hn := Mat3{{h[0], h[1], h[2]}, {h[3], h[4], h[5]}, {h[6], h[7], 1}}
	ndInv, _ := nd.Inverse()
	return ndInv.Mul(hn).Mul(ns), nil
}

// checkSpread rejects point sets that are (nearly) on one line.
func checkSpread(pts []point2) error {
	n := normaliser(pts)
	var sxx, sxy, syy float64
	for _, p := range pts {
		x, y, _ := n.Apply(p.X, p.Y)
		sxx += x * x
		sxy += x * y
		syy += y * y
	}
	k := float64(len(pts))
	sxx, sxy, syy = sxx/k, sxy/k, syy/k
	// Smaller eigenvalue of the scatter matrix; 0 for collinear points.
	tr, det := sxx+syy, sxx*syy-sxy*sxy
	small := tr/2 - math.Sqrt(math.Max(0, tr*tr/4-det))
	if small < 1e-6 {
		return fmt.Errorf("%w: the points lie on one line", ErrDegenerate)
	}
	return nil
}
