package vision

import "math"

// arc is a run of edge points that bends one way: a candidate piece of a
// disk's outline, with the circle fitted to it.
type arc struct {
	pts  []pt
	c    circle
	rms  float64
	span float64 // angle covered, radians, as seen from the fitted centre
}

// segment is a straight run of an edge chain, on the table.
type segment struct{ a, b pt }

// arcParams are the working-plane tolerances of the arc finder.
type arcParams struct {
	tol          float64 // Douglas-Peucker tolerance (about one pixel)
	minPts       int     // fewest points an arc may have
	minR, maxR   float64 // plausible radii
	maxRMS       float64 // largest RMS residual of an arc's fit, plus rmsShare of its radius
	rmsShare     float64
	minTurn      float64 // radians: a smaller turn between segments is a straight line
	maxTurn      float64 // radians: a larger turn is a corner
	minSpan      float64 // radians: the smallest angle an arc must cover
	maxPointStep float64 // largest gap between consecutive points (breaks a chain)
	// The straight runs from sideMin to sideMax long are added to sides,
	// when it is not nil (the sides of long chits: see fitAlongSides).
	sides            *[]segment
	sideMin, sideMax float64
}

// findArcs splits a chain of points into arcs and fits a circle to each.
func findArcs(pts []pt, p arcParams, out []arc) []arc {
	if len(pts) < p.minPts {
		return out
	}
	// Break the chain where consecutive points jump (a fold in the
	// working-plane mapping, or a border).
	start := 0
	for i := 1; i <= len(pts); i++ {
		if i == len(pts) || pts[i].sub(pts[i-1]).len() > p.maxPointStep {
			out = arcsOfRun(pts[start:i], p, out)
			start = i
		}
	}
	return out
}

func arcsOfRun(pts []pt, p arcParams, out []arc) []arc {
	if len(pts) < p.minPts {
		return out
	}
	v := douglasPeucker(pts, p.tol)
	if p.sides != nil {
		for k := 0; k+1 < len(v); k++ {
			a, b := pts[v[k]], pts[v[k+1]]
			if l := b.sub(a).len(); l >= p.sideMin && l <= p.sideMax {
				*p.sides = append(*p.sides, segment{a, b})
			}
		}
	}
	if len(v) < 3 {
		// A chain too short to bend visibly may still be a small arc.
		return appendArc(pts, p, out)
	}
	dir := func(k int) float64 {
		d := pts[v[k+1]].sub(pts[v[k]])
		return math.Atan2(d.Y, d.X)
	}
	runStart, sign := 0, 0.0
	for k := 0; k+1 < len(v)-1; k++ {
		turn := wrapAngle(dir(k+1) - dir(k))
		s := math.Copysign(1, turn)
		ok := math.Abs(turn) >= p.minTurn && math.Abs(turn) <= p.maxTurn
		if ok && (sign == 0 || s == sign) {
			sign = s
			continue
		}
		// The run of segments runStart..k ends at vertex k+1.
		if k+1-runStart >= 2 {
			out = appendArc(pts[v[runStart]:v[k+1]+1], p, out)
		}
		if ok {
			runStart, sign = k, s
		} else {
			runStart, sign = k+1, 0
		}
	}
	if len(v)-1-runStart >= 2 {
		out = appendArc(pts[v[runStart]:v[len(v)-1]+1], p, out)
	}
	return out
}

func appendArc(pts []pt, p arcParams, out []arc) []arc {
	if len(pts) < p.minPts {
		return out
	}
	c, err := fitCircle(pts)
	if err != nil || c.R < p.minR || c.R > p.maxR {
		return out
	}
	var ss float64
	for _, q := range pts {
		d := c.dist(q)
		ss += d * d
	}
	rms := math.Sqrt(ss / float64(len(pts)))
	if rms > p.maxRMS+p.rmsShare*c.R {
		return out
	}
	a0 := pts[0].sub(c.C)
	a1 := pts[len(pts)/2].sub(c.C)
	a2 := pts[len(pts)-1].sub(c.C)
	span := math.Abs(wrapAngle(math.Atan2(a1.Y, a1.X)-math.Atan2(a0.Y, a0.X))) +
		math.Abs(wrapAngle(math.Atan2(a2.Y, a2.X)-math.Atan2(a1.Y, a1.X)))
	if span < p.minSpan {
		return out
	}
	return append(out, arc{pts: pts, c: c, rms: rms, span: span})
}

// douglasPeucker returns the indices of the vertices of a polyline within
// tol of every point.
func douglasPeucker(pts []pt, tol float64) []int {
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	type span struct{ a, b int }
	stack := []span{{0, len(pts) - 1}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.b-s.a < 2 {
			continue
		}
		a, b := pts[s.a], pts[s.b]
		ab := b.sub(a)
		l := ab.len()
		far, farD := -1, tol
		for i := s.a + 1; i < s.b; i++ {
			var d float64
			if l < 1e-12 {
				d = pts[i].sub(a).len()
			} else {
				d = math.Abs(ab.cross(pts[i].sub(a))) / l
			}
			if d > farD {
				far, farD = i, d
			}
		}
		if far >= 0 {
			keep[far] = true
			stack = append(stack, span{s.a, far}, span{far, s.b})
		}
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out
}

func wrapAngle(a float64) float64 {
	for a > math.Pi {
		a -= 2 * math.Pi
	}
	for a <= -math.Pi {
		a += 2 * math.Pi
	}
	return a
}
