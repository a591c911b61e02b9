package vision

import (
	"math"
	"slices"
)

// Known-radius voting
//
// With a calibration the detector knows the sizes disks come in (the
// catalogue), in centimetres, and sees the table without perspective (the
// working plane). Every edge pixel then votes, for each catalogue radius,
// for the two centres a disk of that radius would have on either side of
// the edge, along the edge's normal on the table. A disk's outline, even
// cut by junctions with other edges, broken by its own rim, half hidden
// under another disk or crossed by the table's pattern, piles its votes on
// its centre; art and texture scatter theirs. The peaks become candidate
// circles that go through the same verification as those found from arcs.

// maxVoteDistance is how far from the table point at the frame's centre
// an edge may lie to vote, cm: farther than any table reaches.
const maxVoteDistance = 250

// edgeNormal is an edge pixel mapped to the table: where it is, the
// direction across the edge there and the length on the table of a
// detection pixel there (cm).
type edgeNormal struct {
	p, n  pt
	pixel float32
}

// maxCoarsening is the most times coarser than at the frame's centre
// that voteCircles lowers its need for votes where the table is seen
// coarser (far from a tilted camera).
const maxCoarsening = 2.5

// minVotes is the fewest votes (edge pixels) a peak needs however small
// its outline is in the frame: below it, a small disk's outline is not
// told from the chance alignments of art and texture. On 80 rendered hard
// tables, lowering the need where the table is seen coarser found 17
// disks more and 11 phantoms more; with this floor, 17 more and 27
// phantoms fewer (20 votes: 21 more, 6 fewer; 30: 9 more, 37 fewer).
const minVotes = 25

// voteSpread is how far, as a share of the radius, a disk's votes spread
// about its centre (the error of the edges' normals, radians, with the
// outline's height over the table under a tilted camera): where that is
// two cells or more, a peak is summed over that window, its 3x3 core
// holding at least voteCoreShare of the need. A 4.45 cm disk seen for
// two fifths of its outline on a hard rendered table piles 63 votes
// within 1.5 cells of its centre and 146 within 2.5, for a need of 74.
// On the 240 rendered tables (seeds 1-40 and 101-140, three tiers) the
// wider window finds 1 disk more and 5 phantoms fewer through Go's
// decoder, 3 more and 2 fewer through OpenCV's; pairs stacked wrong 49
// to 37 and 67 to 61 (a large disk missed had a disk of its art put in
// its place, under or over all its neighbours). A core share of 0.6,
// 0.7 or 0.9 gave 36, 37 and 41 pairs wrong, with 2 more, 1 more and 3
// more phantoms; without it, printed rings of a large disk's art made
// phantoms.
const (
	voteSpread    = 0.05
	voteCoreShare = 0.8
)

// tableNormals maps the edge pixels with a gradient to the working plane.
func (pl *workPlane) tableNormals(em edgeMap, out []edgeNormal) []edgeNormal {
	out = out[:0]
	// Edges far out on the table (or beyond it, towards the horizon) are
	// left out: they would stretch the vote grid to uselessly large cells.
	centre := pl.lut[(pl.h/2)*pl.w+pl.w/2]
	for y := 1; y < em.h-1; y++ {
		for x := 1; x < em.w-1; x++ {
			i := y*em.w + x
			if em.pix[i] == 0 || !pl.lutOK[i] || !pl.lutOK[i+1] || !pl.lutOK[i+em.w] {
				continue
			}
			gx, gy := float64(em.gx[i]), float64(em.gy[i])
			g := hypot(gx, gy)
			if g == 0 {
				continue
			}
			// The edge's tangent in the image, carried to the table by the
			// mapping's local derivatives; the normal is across it.
			tu, tv := -gy/g, gx/g
			du := pl.lut[i+1].sub(pl.lut[i])
			dv := pl.lut[i+em.w].sub(pl.lut[i])
			t := du.scale(tu).add(dv.scale(tv))
			l := t.len()
			if l == 0 {
				continue
			}
			if pl.lut[i].sub(centre).len() > maxVoteDistance {
				continue
			}
			out = append(out, edgeNormal{pl.lut[i], pt{-t.Y / l, t.X / l}, float32(pixelSpan(du, dv))})
		}
	}
	return out
}

// cellNormal is an edge normal in the cells of the vote grid.
type cellNormal struct{ x, y, nx, ny float32 }

// voteScratch is the vote's working space, kept from frame to frame.
type voteScratch struct {
	votes []uint8 // the grid; all zero between uses
	cells []cellNormal
	hot   []int32 // cells that reached the hot count, to look at
}

// voteCircles returns the circles of the given radii that the edges vote
// for.
func (pl *workPlane) voteCircles(normals []edgeNormal, radii []float64, sc *voteScratch) []candidate {
	if len(normals) == 0 || len(radii) == 0 {
		return nil
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, e := range normals {
		minX, maxX = min(minX, e.p.X), max(maxX, e.p.X)
		minY, maxY = min(minY, e.p.Y), max(maxY, e.p.Y)
	}
	cell := pl.pixel
	gw := int((maxX-minX)/cell) + 1
	gh := int((maxY-minY)/cell) + 1
	for gw*gh > 6_000_000 {
		cell *= 1.5
		gw, gh = int((maxX-minX)/cell)+1, int((maxY-minY)/cell)+1
	}
	if cap(sc.votes) < gw*gh {
		sc.votes = make([]uint8, gw*gh)
	}
	acc := sc.votes[:gw*gh]
	// Positions and normals in cells, once for every radius.
	cn := slices.Grow(sc.cells[:0], len(normals))[:len(normals)]
	sc.cells = cn
	for i, e := range normals {
		cn[i] = cellNormal{float32((e.p.X - minX) / cell), float32((e.p.Y - minY) / cell), float32(e.n.X), float32(e.n.Y)}
	}
	// Where the table is seen coarsest, a detection pixel spans coarsest
	// times the centre's: an outline there has that many times fewer
	// pixels to vote with.
	coarsest := 1.0
	for _, e := range normals {
		coarsest = max(coarsest, float64(e.pixel)/pl.pixel)
	}
	coarsest = min(coarsest, maxCoarsening)
	var out []candidate
	hot := sc.hot[:0]
	defer func() { sc.hot = hot[:0] }()
	for _, r := range radii {
		rc := float32(r / cell)
		// A whole outline gives about one vote per pixel of its length
		// (fewer where the table is seen coarser); a peak's sum must
		// reach need there.
		expected := 2 * math.Pi * r / pl.pixel
		need := 0.3 * expected
		least := max(need/coarsest, minVotes) // anywhere on the table
		// A large disk's votes spread wider (the normals' error times the
		// radius): its peak is summed over a window hw cells either way,
		// and its 3x3 core must hold voteCoreShare of the need.
		hw := max(1, int(math.Round(float64(rc)*voteSpread)))
		core := 1.0
		if hw > 1 {
			core = voteCoreShare
		}
		// (Hot cells from the core's need alone: a peak's best 3x3 sum
		// may be centred next to the cell that first reached the count.)
		hotCount := uint8(min(255, max(1, math.Floor(core*need/coarsest/9))))
		hot = hot[:0]
		vote := func(x, y float32) {
			cx, cy := int(x), int(y)
			if cx < hw || cy < hw || cx >= gw-hw || cy >= gh-hw {
				return
			}
			k := cy*gw + cx
			if v := acc[k]; v < math.MaxUint8 {
				acc[k] = v + 1
				if v+1 == hotCount {
					hot = append(hot, int32(k))
				}
			}
		}
		for _, e := range cn {
			dx, dy := rc*e.nx, rc*e.ny
			vote(e.x+dx, e.y+dy)
			vote(e.x-dx, e.y-dy)
		}
		type peak struct {
			c     pt
			score float64
		}
		var peaks []peak
		for _, k32 := range hot {
			k := int(k32)
			x, y := k%gw, k/gw
			var sum, sx, sy float64
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					v := float64(acc[k+dy*gw+dx])
					sum += v
					sx += v * float64(dx)
					sy += v * float64(dy)
				}
			}
			wide := sum
			if hw > 1 {
				wide = 0
				for dy := -hw; dy <= hw; dy++ {
					for _, v := range acc[k+dy*gw-hw : k+dy*gw+hw+1] {
						wide += float64(v)
					}
				}
			}
			if wide < least || sum < core*least {
				continue
			}
			c := pt{minX + (float64(x)+0.5+sx/sum)*cell, minY + (float64(y)+0.5+sy/sum)*cell}
			if lo := max(need*pl.pixel/pl.pixelAt(c), minVotes); wide < lo || sum < core*lo {
				continue
			}
			peaks = append(peaks, peak{c, sum})
		}
		// Clearing the grid in one sweep costs less than revisiting
		// every cell voted for.
		clear(acc)
		slices.SortFunc(peaks, func(a, b peak) int { return int(math.Copysign(1, b.score-a.score)) })
		var kept []peak
		for _, p := range peaks {
			near := false
			for _, k := range kept {
				if p.c.sub(k.c).len() < 0.5*r {
					near = true
					break
				}
			}
			if !near {
				kept = append(kept, p)
			}
		}
		for _, k := range kept {
			out = append(out, candidate{c: circle{k.c, r}, coverage: k.score / expected, sized: true})
		}
	}
	return out
}
