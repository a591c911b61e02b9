package vision

import (
	"math"
	"slices"
)

// How the stacking order is read
//
// Where two disks overlap, the upper one's outline runs whole across the
// overlap while the lower one's is hidden there. For each overlapping pair
// the detector looks at the stretch of each disk's circle that lies inside
// the other disk and counts the probes that found a clear edge right on the
// circle with the disk's own rim colour just inside it. The disk whose
// hidden stretch shows more of its own edge and rim lies above. The
// pairwise answers form a directed graph; a cycle (which no real table has)
// is broken at its least certain pair, and each disk's level is the length
// of the longest chain of disks under it.

// pairOrder is the verdict on one overlapping pair: Upper lies on Lower.
type pairOrder struct {
	upper, lower int
	certainty    float64 // 0..1
}

// stackOrder decides which disk lies on which, sets each disk's level and
// returns, for each disk, the disks lying above it.
func stackOrder(fits []diskFit, pl *workPlane) [][]int {
	// Each disk's rim colour, read when a pair needs it.
	rims := make([][3]float64, len(fits))
	read := make([]bool, len(fits))
	rim := func(i int) [3]float64 {
		if !read[i] {
			rims[i], read[i] = rimReference(fits, i, pl), true
		}
		return rims[i]
	}
	var pairs []pairOrder
	for i := range fits {
		for j := i + 1; j < len(fits); j++ {
			a, b := fits[i].c, fits[j].c
			d := a.C.sub(b.C).len()
			switch {
			case d >= a.R+b.R-pl.pixel:
				continue
			case d+a.R <= b.R+pl.pixel:
				// A disk seen wholly inside another lies on it: under it,
				// it would be hidden.
				pairs = append(pairs, pairOrder{i, j, 1})
				continue
			case d+b.R <= a.R+pl.pixel:
				pairs = append(pairs, pairOrder{j, i, 1})
				continue
			}
			// Even a narrow margin is a verdict: judged by the edges alone,
			// without the rims, close pairs went wrong more often.
			si, ni := hiddenStretch(fits[i], rim(i), b, nil, pl)
			sj, nj := hiddenStretch(fits[j], rim(j), a, nil, pl)
			var p pairOrder
			switch {
			case ni < 4 && nj < 4:
				// A sliver of overlap: the smaller disk is more likely the
				// one pushed on top.
				if a.R <= b.R {
					p = pairOrder{i, j, 0}
				} else {
					p = pairOrder{j, i, 0}
				}
			case si >= sj:
				p = pairOrder{i, j, si - sj}
			default:
				p = pairOrder{j, i, sj - si}
			}
			pairs = append(pairs, p)
		}
	}
	pairs = breakCycles(len(fits), pairs)
	if hidOverlap(fits, pairs, rim, pl) {
		pairs = breakCycles(len(fits), pairs)
	}
	above := make([][]int, len(fits))
	below := make([][]int, len(fits))
	for _, p := range pairs {
		above[p.lower] = append(above[p.lower], p.upper)
		below[p.upper] = append(below[p.upper], p.lower)
	}
	levels := make([]int, len(fits))
	for i := range levels {
		levels[i] = -1
	}
	var level func(i int) int
	level = func(i int) int {
		if levels[i] >= 0 {
			return levels[i]
		}
		l := 0
		for _, j := range below[i] {
			l = max(l, level(j)+1)
		}
		levels[i] = l
		return l
	}
	for i := range fits {
		fits[i].level = level(i)
	}
	return above
}

// hidOverlap judges again the pairs of disks of clearly different sizes
// (one at least hiddenSizeRatio times the other's radius) whose overlap a
// third disk, found above both, hides: their outlines there show the
// third disk's face, not which of the two lies on the other, and the
// smaller, the more likely pushed on top, is put there. It reports
// whether it changed a verdict. On hard seeds 1-40 a 4.45 cm disk on a
// 7.62 cm one, a disk lying across both, was read under it (seed 26);
// judged so for pairs of any sizes, three pairs of like sizes went wrong
// for the two it righted.
func hidOverlap(fits []diskFit, pairs []pairOrder, rim func(int) [3]float64, pl *workPlane) bool {
	under := make([][]int, len(fits))
	for _, p := range pairs {
		under[p.lower] = append(under[p.lower], p.upper)
	}
	others := func(i, j int) []circle {
		var out []circle
		for _, k := range under[i] {
			if k != j {
				out = append(out, fits[k].c)
			}
		}
		return out
	}
	changed := false
	for k, p := range pairs {
		a, b := fits[p.upper].c, fits[p.lower].c
		if a.R < hiddenSizeRatio*b.R {
			continue // the upper is not clearly the larger: nothing to turn
		}
		cu, cl := others(p.upper, p.lower), others(p.lower, p.upper)
		if len(cu) == 0 && len(cl) == 0 {
			continue
		}
		if _, nu := hiddenStretch(fits[p.upper], rim(p.upper), b, cu, pl); nu >= 4 {
			continue
		}
		if _, nl := hiddenStretch(fits[p.lower], rim(p.lower), a, cl, pl); nl >= 4 {
			continue
		}
		pairs[k] = pairOrder{p.lower, p.upper, 0}
		changed = true
	}
	return changed
}

// hiddenSizeRatio is how many times a disk's radius the other's must be
// for hidOverlap to judge a pair whose overlap is hidden by its size.
const hiddenSizeRatio = 1.5

// rimReference returns the colour just inside disk i's edge where no other
// disk can cover it: its rim, as the detector sees it.
func rimReference(fits []diskFit, i int, pl *workPlane) [3]float64 {
	var near []int // the disks that may cover part of i's outline
	ci := fits[i].c
	for j := range fits {
		if j != i && ci.C.sub(fits[j].c.C).len() < ci.R+fits[j].c.R+2*pl.pixel {
			near = append(near, j)
		}
	}
	var ch [3][]float64
	for _, s := range fits[i].samples {
		if !s.ok {
			continue
		}
		q := ci.at(s.angle)
		free := true
		for _, j := range near {
			if fits[j].c.dist(q) < 2*pl.pixel {
				free = false
				break
			}
		}
		if free {
			for k := range 3 {
				ch[k] = append(ch[k], s.inner[k])
			}
		}
	}
	return [3]float64{median(ch[0]), median(ch[1]), median(ch[2])}
}

// rimTolerance is how far (RGB distance, 0..255 a channel) the colour just
// inside an edge may be from the disk's rim and still be its rim.
const rimTolerance = 45

// hiddenStretch returns the share of disk f's probes lying inside circle
// other (away from other's edge) that found f's own edge right on f's
// circle, with f's rim colour just inside it, and how many probes lie
// there; those within a circle of cover (disks lying on f) are left out.
func hiddenStretch(f diskFit, rim [3]float64, other circle, cover []circle, pl *workPlane) (float64, int) {
	floor := 0.3 * strengthFloor(f)
	margin := 2 * pl.pixel
	n, good := 0, 0
	for _, s := range f.samples {
		q := f.c.at(s.angle)
		if other.dist(q) > -margin || slices.ContainsFunc(cover, func(c circle) bool { return c.dist(q) < margin }) {
			continue
		}
		n++
		if !s.ok || s.strength < floor {
			continue
		}
		if !s.wOK || math.Abs(f.c.dist(s.w)) > 1.2*pl.pixel {
			continue
		}
		dr, dg, db := s.inner[0]-rim[0], s.inner[1]-rim[1], s.inner[2]-rim[2]
		if dr*dr+dg*dg+db*db > rimTolerance*rimTolerance {
			continue
		}
		good++
	}
	if n == 0 {
		return 0, 0
	}
	return float64(good) / float64(n), n
}

// breakCycles drops the least certain pair of every cycle in the "lies
// on" graph.
func breakCycles(n int, pairs []pairOrder) []pairOrder {
	for {
		cyc := findCycle(n, pairs)
		if cyc == nil {
			return pairs
		}
		weakest := slices.MinFunc(cyc, func(a, b int) int {
			switch {
			case pairs[a].certainty < pairs[b].certainty:
				return -1
			case pairs[a].certainty > pairs[b].certainty:
				return 1
			}
			return 0
		})
		pairs = slices.Delete(pairs, weakest, weakest+1)
	}
}

// findCycle returns the indices of the pairs on a cycle, or nil.
func findCycle(n int, pairs []pairOrder) []int {
	out := make([][]int, n) // pair indices leaving each disk (upper -> lower)
	for k, p := range pairs {
		out[p.upper] = append(out[p.upper], k)
	}
	state := make([]int, n) // 0 new, 1 on the path, 2 done
	var path []int
	var found []int
	var visit func(i int) bool
	visit = func(i int) bool {
		state[i] = 1
		for _, k := range out[i] {
			j := pairs[k].lower
			path = append(path, k)
			if state[j] == 1 {
				for s := len(path) - 1; s >= 0; s-- {
					found = append(found, path[s])
					if pairs[path[s]].upper == j {
						break
					}
				}
				return true
			}
			if state[j] == 0 && visit(j) {
				return true
			}
			path = path[:len(path)-1]
		}
		state[i] = 2
		return false
	}
	for i := range n {
		if state[i] == 0 && visit(i) {
			return found
		}
	}
	return nil
}
