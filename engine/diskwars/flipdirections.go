package diskwars

import (
	"math"
	"slices"

	"tableref/engine"
)

// Directions of the flips on the way
//
// "Le joueur qui le contrôle peut retourner le Disk dans n'importe quelle
// direction": the search of flip paths (pathFinder.minFlips) cannot try
// every direction, so it tries every 5°, the direction of the end, and
// one direction in each arc of free landings no 5° direction falls in: a
// gap between two disks narrower than 5° is still tried. The arcs come
// from the disks the landing could overlap, so the directions whose
// landing surely overlaps one are not tried at all.

// gridDirections is how many evenly spaced directions are always tried.
const gridDirections = 72

// gridStep is the angle between two of them, in radians.
const gridStep = 2 * math.Pi / gridDirections

// arcMargin is how far inside a blocked arc, in radians, a direction must
// be to be left untried; nearer its ends pathFinder.free decides.
const arcMargin = 1e-9

// arc is an arc of directions [lo, hi] in radians, 0 <= lo <= hi <= 2π.
type arc struct{ lo, hi float64 }

// directions returns the directions, in radians, to try for a flip of
// length step from c towards end.
func (p pathFinder) directions(c, end engine.Vec, step float64) []float64 {
	blocked, all := p.blockedArcs(c, step)
	if all {
		return nil
	}
	inside := func(a float64) bool {
		a = wrapAngle(a)
		for _, b := range blocked {
			if a > b.lo+arcMargin && a < b.hi-arcMargin {
				return true
			}
		}
		return false
	}
	out := make([]float64, 0, gridDirections+4)
	for k := range gridDirections {
		if a := float64(k) * gridStep; !inside(a) {
			out = append(out, a)
		}
	}
	if v := end.Sub(c); v.Len() > 0 && !inside(v.Angle()) {
		out = append(out, v.Angle())
	}
	for _, g := range freeArcs(blocked) {
		if math.Floor(g.hi/gridStep) < math.Ceil(g.lo/gridStep) {
			out = append(out, (g.lo+g.hi)/2) // no 5° direction in it
		}
	}
	return out
}

// blockedArcs returns, merged and in increasing order, the directions in
// which a landing step away from c overlaps a disk the moving disk may not
// land over on the way; all is true when every landing does.
func (p pathFinder) blockedArcs(c engine.Vec, step float64) (arcs []arc, all bool) {
	for j := range p.t.Len() {
		if j == p.i || p.t.Disk(j).IsTerrain() {
			continue
		}
		o := p.t.Circle(j)
		w := o.C.Sub(c)
		dist, reach := w.Len(), p.r+o.R
		if dist >= step+reach || dist+reach <= step || !p.stops(j) {
			continue // no landing overlaps it, or the disk may land over it
		}
		if dist+step <= reach {
			return nil, true
		}
		// |landing - o.C|² = step² + dist² - 2·step·dist·cos(φ), φ the
		// angle between the flip and w: below reach² it overlaps.
		half := math.Acos((step*step + dist*dist - reach*reach) / (2 * step * dist))
		lo := wrapAngle(w.Angle() - half)
		if hi := lo + 2*half; hi > 2*math.Pi {
			arcs = append(arcs, arc{lo, 2 * math.Pi}, arc{0, hi - 2*math.Pi})
		} else {
			arcs = append(arcs, arc{lo, hi})
		}
	}
	slices.SortFunc(arcs, func(a, b arc) int { return cmpF(a.lo, b.lo) })
	var merged []arc
	for _, a := range arcs {
		if n := len(merged); n > 0 && a.lo <= merged[n-1].hi {
			merged[n-1].hi = max(merged[n-1].hi, a.hi)
			continue
		}
		merged = append(merged, a)
	}
	return merged, false
}

// freeArcs returns the arcs of directions between the blocked ones, which
// are merged and in increasing order; an arc across 0 is given with hi
// above 2π.
func freeArcs(blocked []arc) []arc {
	if len(blocked) == 0 {
		return nil
	}
	var out []arc
	for k := 1; k < len(blocked); k++ {
		if blocked[k].lo > blocked[k-1].hi {
			out = append(out, arc{blocked[k-1].hi, blocked[k].lo})
		}
	}
	last, first := blocked[len(blocked)-1], blocked[0]
	if wrap := (arc{last.hi, first.lo + 2*math.Pi}); wrap.hi > wrap.lo {
		out = append(out, wrap)
	}
	return out
}

// wrapAngle returns a in [0, 2π).
func wrapAngle(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a
}
