package engine

import (
	"math"
	"slices"
)

const twoPi = 2 * math.Pi

// arcSet is a set of angles on a circle, as sorted, disjoint, closed
// segments [lo, hi] inside [0, 2π]. The angle θ stands for the point
// centre + r(cos θ, sin θ).
type arcSet []segment

type segment struct{ lo, hi float64 }

// fullArc is the whole circle.
func fullArc() arcSet { return arcSet{{0, twoPi}} }

// arcInside returns the angles of the points of circle c that lie within
// distance R of point p (inside the closed disk (p, R)).
func arcInside(c Circle, p Vec, R float64) arcSet {
	d := p.Sub(c.C)
	dist := d.Len()
	if R < 0 {
		return nil
	}
	if dist == 0 || c.R == 0 {
		if dist+c.R <= R {
			return fullArc()
		}
		return nil
	}
	// |c + r u(θ) - p|² = r² + d² - 2 r d cos(θ-φ) ≤ R²
	k := (c.R*c.R + dist*dist - R*R) / (2 * c.R * dist)
	switch {
	case k <= -1:
		return fullArc()
	case k > 1:
		return nil
	}
	half := math.Acos(k)
	return arcFrom(d.Angle()-half, d.Angle()+half)
}

// arcFrom returns the arc from angle a counter-clockwise to angle b
// (b ≥ a, b - a ≤ 2π), wrapped into [0, 2π].
func arcFrom(a, b float64) arcSet {
	n := b - a
	if n >= twoPi {
		return fullArc()
	}
	a = math.Mod(a, twoPi)
	if a < 0 {
		a += twoPi
	}
	b = a + n
	if b <= twoPi {
		return arcSet{{a, b}}
	}
	return arcSet{{0, b - twoPi}, {a, twoPi}}
}

// union returns the union of the sets.
func union(sets ...arcSet) arcSet {
	var all []segment
	for _, s := range sets {
		all = append(all, s...)
	}
	if len(all) == 0 {
		return nil
	}
	slices.SortFunc(all, func(x, y segment) int {
		switch {
		case x.lo < y.lo:
			return -1
		case x.lo > y.lo:
			return 1
		}
		return 0
	})
	out := arcSet{all[0]}
	for _, s := range all[1:] {
		last := &out[len(out)-1]
		if s.lo <= last.hi {
			last.hi = max(last.hi, s.hi)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// intersect returns a ∩ b.
func intersect(a, b arcSet) arcSet {
	var out arcSet
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo <= hi {
			out = append(out, segment{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// minus returns a \ b (as closed segments: boundary points are kept).
func minus(a, b arcSet) arcSet {
	var out arcSet
	for _, s := range a {
		lo := s.lo
		for _, t := range b {
			if t.hi < lo || t.lo > s.hi {
				continue
			}
			if t.lo > lo {
				out = append(out, segment{lo, t.lo})
			}
			lo = max(lo, t.hi)
		}
		if lo < s.hi {
			out = append(out, segment{lo, s.hi})
		}
	}
	return out
}

// length returns the total angle of the set, in radians.
func (s arcSet) length() float64 {
	var n float64
	for _, g := range s {
		n += g.hi - g.lo
	}
	return n
}
