package vision

import (
	"errors"
	"math"
	"slices"
)

// pt is a point in the working plane: image pixels, or table centimetres
// when the detector has a calibration.
type pt struct{ X, Y float64 }

func (p pt) sub(q pt) pt        { return pt{p.X - q.X, p.Y - q.Y} }
func (p pt) add(q pt) pt        { return pt{p.X + q.X, p.Y + q.Y} }
func (p pt) scale(f float64) pt { return pt{p.X * f, p.Y * f} }
func (p pt) len() float64       { return math.Sqrt(p.X*p.X + p.Y*p.Y) }
func (p pt) dot(q pt) float64   { return p.X*q.X + p.Y*q.Y }
func (p pt) cross(q pt) float64 { return p.X*q.Y - p.Y*q.X }

// circle is a circle in the working plane.
type circle struct {
	C pt
	R float64
}

// dist returns the signed distance of p from the circle (positive outside).
func (c circle) dist(p pt) float64 { return p.sub(c.C).len() - c.R }

// at returns the point of the circle at angle a.
func (c circle) at(a float64) pt {
	s, co := math.Sincos(a)
	return pt{c.C.X + c.R*co, c.C.Y + c.R*s}
}

var errFit = errors.New("circle fit failed")

// fitCircle fits a circle to points: an algebraic fit (Kåsa, on centred
// data) refined by Gauss-Newton on the geometric distances.
func fitCircle(pts []pt) (circle, error) {
	c, err := fitAlgebraic(pts, nil)
	if err != nil {
		return c, err
	}
	return refineGeometric(pts, nil, c), nil
}

// reweighRounds is how many times fitCircleRobust reweights points that
// may hold strays.
const reweighRounds = 3

// fitCircleRobust fits a circle and then, rounds times (at least once),
// reweights the points by their residuals (Tukey's biweight, scale from
// the median absolute residual), so that stray edge points (art, a
// neighbour's rim, a shadow) do not pull the circle. It returns the
// circle and the RMS residual of the inliers.
func fitCircleRobust(pts []pt, minScale float64, rounds int) (circle, float64, error) {
	c, err := fitCircle(pts)
	if err != nil {
		return c, 0, err
	}
	w := make([]float64, len(pts))
	res := make([]float64, len(pts))
	for range max(rounds, 1) {
		for i, p := range pts {
			res[i] = math.Abs(c.dist(p))
		}
		s := median(res) * 1.4826 * 3
		s = max(s, minScale)
		for i, r := range res {
			u := r / (s * 1.5)
			if u < 1 {
				w[i] = (1 - u*u) * (1 - u*u)
			} else {
				w[i] = 0
			}
		}
		nc, err := fitAlgebraic(pts, w)
		if err != nil {
			break
		}
		c = refineGeometric(pts, w, nc)
	}
	var sum, n float64
	for i, p := range pts {
		if w[i] > 0 {
			d := c.dist(p)
			sum += w[i] * d * d
			n += w[i]
		}
	}
	if n == 0 {
		return c, math.Inf(1), errFit
	}
	return c, math.Sqrt(sum / n), nil
}

// fitAlgebraic is the Kåsa fit: minimise Σ w (x² + y² + D x + E y + F)².
func fitAlgebraic(pts []pt, w []float64) (circle, error) {
	if len(pts) < 3 {
		return circle{}, errFit
	}
	var mx, my, sw float64
	for i, p := range pts {
		wi := weight(w, i)
		mx += wi * p.X
		my += wi * p.Y
		sw += wi
	}
	if sw == 0 {
		return circle{}, errFit
	}
	mx, my = mx/sw, my/sw
	var suu, suv, svv, suuu, svvv, suvv, svuu float64
	for i, p := range pts {
		wi := weight(w, i)
		u, v := p.X-mx, p.Y-my
		suu += wi * u * u
		suv += wi * u * v
		svv += wi * v * v
		suuu += wi * u * u * u
		svvv += wi * v * v * v
		suvv += wi * u * v * v
		svuu += wi * v * u * u
	}
	det := suu*svv - suv*suv
	if math.Abs(det) < 1e-12*(suu*svv+1e-300) || det == 0 {
		return circle{}, errFit
	}
	a := 0.5 * (suuu + suvv)
	b := 0.5 * (svvv + svuu)
	uc := (a*svv - b*suv) / det
	vc := (b*suu - a*suv) / det
	r := math.Sqrt(uc*uc + vc*vc + (suu+svv)/sw)
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return circle{}, errFit
	}
	return circle{pt{uc + mx, vc + my}, r}, nil
}

// refineGeometric runs a few Gauss-Newton steps on Σ w (|p - c| - r)².
func refineGeometric(pts []pt, w []float64, c circle) circle {
	for range 4 {
		// The sums of J'WJ and J'Wr, J's row being (-ux, -uy, -1) for the
		// unit vector u from the centre to the point.
		var sxx, sxy, syy, sx, sy, s1, rx, ry, r1 float64
		for i, p := range pts {
			wi := weight(w, i)
			if wi == 0 {
				continue
			}
			d := p.sub(c.C)
			l := d.len()
			if l < 1e-12 {
				continue
			}
			ux, uy := d.X/l, d.Y/l
			r := l - c.R
			sxx += wi * ux * ux
			sxy += wi * ux * uy
			syy += wi * uy * uy
			sx += wi * ux
			sy += wi * uy
			s1 += wi
			rx -= wi * ux * r
			ry -= wi * uy * r
			r1 -= wi * r
		}
		jtj := [3][3]float64{{sxx, sxy, sx}, {sxy, syy, sy}, {sx, sy, s1}}
		step, ok := solve3(jtj, [3]float64{rx, ry, r1})
		if !ok {
			return c
		}
		c = circle{pt{c.C.X - step[0], c.C.Y - step[1]}, c.R - step[2]}
		if math.Abs(step[0])+math.Abs(step[1])+math.Abs(step[2]) < 1e-6*(1+c.R) {
			break
		}
	}
	return c
}

func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// solve3 solves a 3x3 linear system by Cramer's rule.
func solve3(a [3][3]float64, b [3]float64) ([3]float64, bool) {
	det := func(m [3][3]float64) float64 {
		return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
			m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
			m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	}
	d := det(a)
	if math.Abs(d) < 1e-18 {
		return [3]float64{}, false
	}
	var x [3]float64
	for k := range 3 {
		m := a
		for r := range 3 {
			m[r][k] = b[r]
		}
		x[k] = det(m) / d
	}
	return x, true
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	return nth(s, len(s)/2)
}

// nth returns the value that would stand at index k were v sorted,
// reordering v (quickselect: linear time on average, where sorting the
// samples of every disk three times a frame cost a few milliseconds).
func nth(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		// Median of three as the pivot, then Hoare's partition.
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		pivot := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// hypot is math.Hypot without its care for overflow, which no length in
// a frame or on a table needs, at a fraction of the cost.
func hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }
