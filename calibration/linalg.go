package calibration

import (
	"errors"
	"math"
)

// Vec3 is a 3-vector.
type Vec3 [3]float64

// Mat3 is a 3x3 matrix in row-major order.
type Mat3 [3][3]float64

func (a Vec3) add(b Vec3) Vec3      { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a Vec3) sub(b Vec3) Vec3      { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a Vec3) scale(s float64) Vec3 { return Vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a Vec3) dot(b Vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a Vec3) norm() float64        { return math.Sqrt(a.dot(a)) }
func (a Vec3) cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// MulVec returns m v.
func (m Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v[0] + m[0][1]*v[1] + m[0][2]*v[2],
		m[1][0]*v[0] + m[1][1]*v[1] + m[1][2]*v[2],
		m[2][0]*v[0] + m[2][1]*v[1] + m[2][2]*v[2],
	}
}

// Mul returns m n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				r[i][j] += m[i][k] * n[k][j]
			}
		}
	}
	return r
}

// T returns the transpose of m.
func (m Mat3) T() Mat3 {
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = m[j][i]
		}
	}
	return r
}

func (m Mat3) det() float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// Inverse returns the inverse of m and false when m is singular.
func (m Mat3) Inverse() (Mat3, bool) {
	d := m.det()
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return Mat3{}, false
	}
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			a, b := (j+1)%3, (j+2)%3
			c, e := (i+1)%3, (i+2)%3
			r[i][j] = (m[a][c]*m[b][e] - m[a][e]*m[b][c]) / d
		}
	}
	return r, true
}

func identity() Mat3 { return Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// col returns column j of m.
func (m Mat3) col(j int) Vec3 { return Vec3{m[0][j], m[1][j], m[2][j]} }

// Rodrigues returns the rotation matrix of rotation vector w (axis times
// angle in radians), as OpenCV's Rodrigues does.
func Rodrigues(w Vec3) Mat3 {
	th := w.norm()
	if th < 1e-15 {
		return identity()
	}
	k := w.scale(1 / th)
	c, s := math.Cos(th), math.Sin(th)
	kx := Mat3{{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}}
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = (1-c)*k[i]*k[j] + s*kx[i][j]
			if i == j {
				r[i][j] += c
			}
		}
	}
	return r
}

// RotationVector is the inverse of Rodrigues for a rotation matrix.
func RotationVector(r Mat3) Vec3 {
	c := (r[0][0] + r[1][1] + r[2][2] - 1) / 2
	c = math.Max(-1, math.Min(1, c))
	th := math.Acos(c)
	v := Vec3{r[2][1] - r[1][2], r[0][2] - r[2][0], r[1][0] - r[0][1]}
	if th < 1e-12 {
		return v.scale(0.5)
	}
	if math.Pi-th < 1e-6 {
		// Near 180 degrees: take the axis from the symmetric part.
		axis := Vec3{math.Sqrt(math.Max(0, (r[0][0]+1)/2)), math.Sqrt(math.Max(0, (r[1][1]+1)/2)), math.Sqrt(math.Max(0, (r[2][2]+1)/2))}
		if r[0][1] < 0 {
			axis[1] = -axis[1]
		}
		if r[0][2] < 0 {
			axis[2] = -axis[2]
		}
		return axis.scale(th / axis.norm())
	}
	return v.scale(th / (2 * math.Sin(th)))
}

// orthonormalise returns the rotation nearest to the matrix whose first
// two columns are a and b (Gram-Schmidt on the symmetric bisector, which
// treats a and b alike).
func orthonormalise(a, b Vec3) Mat3 {
	a = a.scale(1 / a.norm())
	b = b.scale(1 / b.norm())
	s := a.add(b)
	d := a.sub(b)
	s = s.scale(1 / s.norm())
	d = d.scale(1 / d.norm())
	x := s.add(d).scale(1 / math.Sqrt2)
	y := s.sub(d).scale(1 / math.Sqrt2)
	z := x.cross(y)
	return Mat3{{x[0], y[0], z[0]}, {x[1], y[1], z[1]}, {x[2], y[2], z[2]}}
}

var errSingular = errors.New("singular system")

// Solve solves the n x n system a x = b in place by Gaussian elimination
// with partial pivoting.
func Solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-300 {
			return nil, errSingular
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x, nil
}

// invert returns the inverse of the n x n matrix a.
func invert(a [][]float64) ([][]float64, error) {
	n := len(a)
	inv := make([][]float64, n)
	for j := range n {
		m := make([][]float64, n)
		for i := range n {
			m[i] = append([]float64(nil), a[i]...)
		}
		e := make([]float64, n)
		e[j] = 1
		x, err := Solve(m, e)
		if err != nil {
			return nil, err
		}
		for i := range n {
			if inv[i] == nil {
				inv[i] = make([]float64, n)
			}
			inv[i][j] = x[i]
		}
	}
	return inv, nil
}
