package board9

import (
	"errors"
	"math"
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
// squares sense (direct linear transform on normalised points, h33 = 1).
func fitHomography(src, dst []point) (homography, error) {
	if len(src) < 4 || len(src) != len(dst) {
		return homography{}, errDegenerate
	}
	ns, ts := normalise(src)
	nd, td := normalise(dst)
	// Normal equations of the 8 unknowns.
	var ata [8][8]float64
	var atb [8]float64
	add := func(row [8]float64, b float64) {
		for i := range 8 {
			for j := range 8 {
				ata[i][j] += row[i] * row[j]
			}
			atb[i] += row[i] * b
		}
	}
	for i := range ns {
		x, y, u, v := ns[i].X, ns[i].Y, nd[i].X, nd[i].Y
		add([8]float64{x, y, 1, 0, 0, 0, -u * x, -u * y}, u)
		add([8]float64{0, 0, 0, x, y, 1, -v * x, -v * y}, v)
	}
	sol, ok := solve8(ata, atb)
	if !ok {
		return homography{}, errDegenerate
	}
	hn := homography{{sol[0], sol[1], sol[2]}, {sol[3], sol[4], sol[5]}, {sol[6], sol[7], 1}}
	tdi, _ := td.inverse()
	h := mul(mul(tdi, hn), ts)
	if math.Abs(h[2][2]) < 1e-15 {
		return homography{}, errDegenerate
	}
	for i := range 3 {
		for j := range 3 {
			h[i][j] /= h[2][2]
		}
	}
	return h, nil
}

// normalise moves the points' centroid to the origin and scales their
// mean distance to sqrt 2 (Hartley), returning the points and the map.
func normalise(ps []point) ([]point, homography) {
	var cx, cy float64
	for _, p := range ps {
		cx += p.X
		cy += p.Y
	}
	cx /= float64(len(ps))
	cy /= float64(len(ps))
	var d float64
	for _, p := range ps {
		d += math.Hypot(p.X-cx, p.Y-cy)
	}
	d /= float64(len(ps))
	s := 1.0
	if d > 0 {
		s = math.Sqrt2 / d
	}
	out := make([]point, len(ps))
	for i, p := range ps {
		out[i] = point{(p.X - cx) * s, (p.Y - cy) * s}
	}
	return out, homography{{s, 0, -s * cx}, {0, s, -s * cy}, {0, 0, 1}}
}

func mul(a, b homography) homography {
	var r homography
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				r[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return r
}

// solve8 solves a x = b by Gaussian elimination with partial pivoting.
func solve8(a [8][8]float64, b [8]float64) ([8]float64, bool) {
	for c := range 8 {
		p := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return b, false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < 8; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < 8; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [8]float64
	for r := 7; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < 8; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}

func hypot(a, b float64) float64 { return math.Hypot(a, b) }
