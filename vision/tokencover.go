package vision

import (
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// Chits partly under a disk
//
// A disk pushed or flipped onto a chit lying on the table covers part of
// it: the chit's colour then fills only the part of its outline the disk
// leaves, and where the disk covers it, its inside, the ring around it
// and its outline show the disk. Such a chit is fitted again with the
// disks found drawn in a cover: every sample the cover hides, or shades
// (next to it, where the disk's blurred outline and its contact shadow
// darken the chit), is left out, and the chit is kept when what is seen
// of it is a chit's (fills its outline, stands out of the ring around
// it, lies on edges), and enough of it is seen (tokenMinSeen of its
// outline, half of its inside). A region the plain fit did not keep is
// fitted so when a disk's cover ends it: the plain fit may not even have
// been tried (its outline, placed on the middle of the part seen, lies
// off the edges), or it found too little of the chit's colour where the
// disk hides it. Regions away from the disks, by far the most, cost only
// a look at their pixels.
//
// The cover holds, at each detection pixel, one more than the level of
// the highest disk there (0 where there is none); a chit lies at the cover
// level of the middle of what is seen of it, and is hidden where the cover
// is higher. A chit lying on a disk and running over its edge is not
// hidden by it.

// coverView tells the detection pixels where a chit is hidden under a
// disk.
type coverView struct {
	level []uint8 // detection pixels: one more than the highest disk's level
	w, h  int
	above uint8 // the chit's own cover level
	// below hides also what lies lower than the chit: the ground beyond
	// the edge of the disk it lies on (see overhangs).
	below bool
}

// hides reports whether the cover hides detection pixel (x, y); a nil
// cover hides nothing.
func (c *coverView) hides(x, y int) bool {
	if c == nil || x < 0 || y < 0 || x >= c.w || y >= c.h {
		return false
	}
	l := c.level[y*c.w+x]
	return l > c.above || c.below && l < c.above
}

// shades reports whether the cover hides detection pixel (x, y) or one
// coverShade pixels from it, across or along the rows: next to a disk
// lying on it, a chit is darkened out of its colour by the disk's blurred
// outline and its contact shadow, and its outline runs into the disk's.
// What is shaded is left out of a chit's shares, though it counts as seen.
func (c *coverView) shades(x, y int) bool {
	return c.hides(x, y) || c.hides(x-coverShade, y) || c.hides(x+coverShade, y) || c.hides(x, y-coverShade) || c.hides(x, y+coverShade)
}

// coverShade is how far, detection pixels, from a disk lying on a chit
// the chit is shaded (see shades). Two pixels leave too little of a small
// chit to tell a bolt from a boulder.
const coverShade = 1

// A chit partly under a disk is kept when from tokenMinSeen to
// tokenMaxSeen of its outline is seen (all of it seen, the plain fit
// judged it), and no side of what is seen of the ring around it is more
// than tokenUnderMaxSide of its colour: with part of it hidden, each side
// seen must stand out of its surroundings the more clearly.
const (
	tokenMinSeen      = 0.4
	tokenMaxSeen      = 0.95
	tokenUnderMaxSide = 0.3
)

// coverPoints is how many points of a disk's outline its cover polygon has.
const coverPoints = 24

// buildCover draws the top faces of the disks found, lowest first, into
// the detector's cover (detection pixels): each disk's outline at the
// height of its top face, mapped into the image, filled with one more
// than its level.
func (d *Detector) buildCover(disks []diskFit) []uint8 {
	pl := d.plane
	n := pl.w * pl.h
	d.cover = slices.Grow(d.cover[:0], n)[:n]
	clear(d.cover)
	order := make([]int, len(disks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return disks[a].level - disks[b].level })
	poly := make([]pt, 0, coverPoints)
	for _, i := range order {
		f := disks[i]
		poly = poly[:0]
		ok := true
		for k := range coverPoints {
			a := 2 * math.Pi * float64(k) / coverPoints
			q, in := pl.detection(f.c.C.add(pt{f.c.R * math.Cos(a), f.c.R * math.Sin(a)}), f.height)
			if !in {
				ok = false
				break
			}
			poly = append(poly, q)
		}
		if ok {
			fillConvex(d.cover, pl.w, pl.h, poly, uint8(min(f.level+1, math.MaxUint8)))
		}
	}
	return d.cover
}

// fillConvex sets to v the pixels of buf (w x h, one byte a pixel) whose
// centres lie inside the convex polygon poly (pixel coordinates, a pixel's
// centre at whole numbers).
func fillConvex(buf []uint8, w, h int, poly []pt, v uint8) {
	if len(poly) < 3 {
		return
	}
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, p := range poly {
		y0, y1 = min(y0, p.Y), max(y1, p.Y)
	}
	for y := max(0, int(math.Ceil(y0))); y <= min(h-1, int(math.Floor(y1))); y++ {
		fy := float64(y)
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, a := range poly {
			b := poly[(i+1)%len(poly)]
			if (a.Y <= fy) == (b.Y <= fy) {
				continue // the edge does not cross the row
			}
			x := a.X + (fy-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			lo, hi = min(lo, x), max(hi, x)
		}
		if lo > hi {
			continue
		}
		row := buf[y*w : (y+1)*w]
		for x := max(0, int(math.Ceil(lo))); x <= min(w-1, int(math.Floor(hi))); x++ {
			row[x] = v
		}
	}
}

// underDisks fits, in one frame, the chits partly under a disk: it holds
// the disks found, their cover (drawn when first needed) and the seen parts
// it fitted.
type underDisks struct {
	disks []diskFit
	cover []uint8
	tried []kindAt
}

// kindAt is a kind's seen part, centred on a detection pixel.
type kindAt struct {
	kind int
	c    pt
}

// seenPart is a region of a kind's colour: the region of the given label
// in labels (w pixels wide, its origin at detection pixel (ox, oy)).
type seenPart struct {
	labels    []int32
	w, ox, oy int
	label     int32
	box       region
}

// fit fits kind ki again to region part, centred on detection pixel c,
// whose plain fit placed a chit there but did not keep it, as a chit
// partly under a disk (see fitTemplate with a cover): when a disk's cover
// ends the region, and the seen part was not fitted yet. It reports
// whether the fit is kept: accepted, tokenMinSeen to tokenMaxSeen of its
// outline seen, no side of the ring seen more than tokenUnderMaxSide of
// its colour.
func (u *underDisks) fit(d *Detector, ki int, mask, edges []byte, c pt, reach float64, axis pt, part seenPart) (tokenFit, bool) {
	// Labelled again, a chit's seen part comes out about the same: it is
	// fitted once.
	for _, t := range u.tried {
		if t.kind == ki && t.c.sub(c).len() <= underSame {
			return tokenFit{}, false
		}
	}
	if u.cover == nil {
		u.cover = d.buildCover(u.disks)
	}
	cov := d.coverAt(u.cover, part, c)
	if cov == nil {
		return tokenFit{}, false
	}
	u.tried = append(u.tried, kindAt{ki, c})
	f, ok := d.fitTemplate(&d.templates[ki], mask, edges, c.X, c.Y, reach, axis, cov)
	if axis.len() > 0 && d.opt.Tokens[ki].Shape == "long" && !(ok && f.accepted()) {
		// The seen part may have joined a patch of the kind's colour
		// beside it (the disk's contact shadow, a line on the ground,
		// for a grey chit): the region's long axis is then not the
		// chit's, and every angle is tried. (Only a long kind is fitted
		// near the axis: another's fit would come out the same.)
		f, ok = d.fitTemplate(&d.templates[ki], mask, edges, c.X, c.Y, reach, pt{}, cov)
	}
	return f, ok && f.accepted() && f.sideOut <= tokenUnderMaxSide && f.seen >= tokenMinSeen && f.seen <= tokenMaxSeen
}

// underSame is how close, detection pixels, two seen parts of a kind are
// taken for the same.
const underSame = 1.5

// coverAt returns the cover seen from a chit whose seen part is part,
// centred on detection pixel c: nil unless the cover hides a pixel within
// coverTouch of the region (a disk lying on a chit ends its seen part).
func (d *Detector) coverAt(cover []uint8, part seenPart, c pt) *coverView {
	pl := d.plane
	x, y := int(math.Round(c.X)), int(math.Round(c.Y))
	if x < 0 || y < 0 || x >= pl.w || y >= pl.h {
		return nil
	}
	cov := &coverView{level: cover, w: pl.w, h: pl.h, above: cover[y*pl.w+x]}
	rg := part.box
	for ry := rg.y0; ry < rg.y1; ry++ {
		for rx := rg.x0; rx < rg.x1; rx++ {
			if part.labels[ry*part.w+rx] != part.label {
				continue
			}
			fx, fy := rx+part.ox, ry+part.oy
			if cov.hides(fx-coverTouch, fy) || cov.hides(fx+coverTouch, fy) || cov.hides(fx, fy-coverTouch) || cov.hides(fx, fy+coverTouch) {
				return cov
			}
		}
	}
	return nil
}

// coverTouch is how far, detection pixels, from a region a disk must hide
// a pixel for the region to be taken for the seen part of a chit under
// it: the colour mask stops short of the disk's outline, by its blur and
// by the contact shadow the disk casts on the chit.
const coverTouch = 4

// Chits on a disk running off it
//
// A chit dropped on a disk may run over its edge onto the table. Where
// the table is of the chit's colour (a brown arrow on wood, a grey bolt on
// grey tiles), the part beyond the disk joins the table in the kind's
// mask, and the region, the table's size, is fitted by nothing; nor do
// its sides stand out of the table there (fitAlongSides). The part on the
// disk is a region of its own in the kind's mask cut to the disks' cover,
// and is fitted with a cover that hides, besides any disk above the
// chit, what lies below it: the table beyond the disk's edge, where the
// chit's outline is not seen. It is kept as a chit partly under a disk
// is, when at least tokenMinSeen of its outline is seen.

// A chit lying across the edge of the disk it lies on hides that edge:
// a fit under which at least rimUnderLeast samples of the disk's outline
// lie, more than rimUnderMost of them on edges, is the disk's rim or art
// of the chit's colour (see edgesUnder).
const (
	rimUnderLeast = 2
	rimUnderMost  = 0.75
)

// overhangs fits the chits of kind ki, whose colour is the ground's,
// lying on a disk and running off it (see above). minArea and maxArea
// bound the part seen (detection pixels), diag its box's sides; reach is
// how far from it (pixels) the fit may move; kernel opens the mask (as
// fitTokens opens the others); keep keeps a fit.
func (u *underDisks) overhangs(d *Detector, ki int, edges []byte, minArea, maxArea, diag, reach float64, kernel gocv.Mat, keep func(tokenFit) bool) {
	pl := d.plane
	if u.cover == nil {
		u.cover = d.buildCover(u.disks)
	}
	// The kind's pixels on the disks (in the scratch Mats the plain fit
	// is done with).
	d.kindMasks[ki].CopyTo(&d.noEdges)
	on, err := d.noEdges.DataPtrUint8()
	if err != nil {
		return
	}
	some := false
	for i, l := range u.cover {
		if l == 0 {
			on[i] = 0
		} else if on[i] != 0 {
			some = true
		}
	}
	if !some {
		return
	}
	gocv.MorphologyEx(d.noEdges, &d.cut, gocv.MorphOpen, kernel)
	labels, regions := d.regions.labelRegions(d.cut, 8)
	k := d.opt.Tokens[ki]
	t := &d.templates[ki]
	for i := 1; i < len(regions); i++ {
		rg := regions[i]
		bw, bh := rg.x1-rg.x0, rg.y1-rg.y0
		if a := float64(rg.area); a < tokenMinSeen*minArea || a > maxArea || float64(max(bw, bh)) > diag {
			continue
		}
		c := pt{rg.cx, rg.cy}
		part := seenPart{labels, pl.w, 0, 0, int32(i), rg}
		x, y := int(math.Round(c.X)), int(math.Round(c.Y))
		if x < 0 || y < 0 || x >= pl.w || y >= pl.h || u.cover[y*pl.w+x] == 0 {
			continue
		}
		cov := &coverView{level: u.cover, w: pl.w, h: pl.h, above: u.cover[y*pl.w+x], below: true}
		if !cov.meetsBelow(part) {
			continue // the seen part does not reach the disk's edge
		}
		axis := regionAxis(labels, pl.w, int32(i), rg.x0, rg.y0, bw, bh, rg.cx, rg.cy)
		// The part seen is the chit's end on the disk: a long chit's
		// middle lies further along its axis, one way or the other.
		starts := []pt{c}
		if k.Shape == "long" && axis.len() > 0 {
			_, jx, jy, ok := d.localMap(c.X, c.Y)
			if !ok {
				continue
			}
			half := 0.5 * k.Length * 0.5 * (jx.len() + jy.len())
			seen := 0.5 * math.Max(float64(bw), float64(bh))
			if off := half - seen; off > reach {
				starts = append(starts, c.add(axis.scale(off)), c.sub(axis.scale(off)))
			}
		}
		best, found := tokenFit{score: math.Inf(-1)}, false
		for _, s := range starts {
			f, ok := d.fitTemplate(t, on, edges, s.X, s.Y, reach, axis, cov)
			if ok && f.accepted() && f.sideOut <= tokenUnderMaxSide && f.seen >= tokenMinSeen && f.score > best.score {
				best, found = f, true
			}
		}
		if !found {
			continue
		}
		if under, onEdge := d.edgesUnder(best, t, u.disks, cov.above, edges); under < rimUnderLeast || float64(onEdge) <= rimUnderMost*float64(under) {
			keep(best)
		}
	}
}

// meetsBelow reports whether cover c (the chit's own level above) is
// lower than the chit within coverTouch of part: the chit's seen part
// ends at the edge of the disk it lies on.
func (c *coverView) meetsBelow(part seenPart) bool {
	rg := part.box
	low := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < c.w && y < c.h && c.level[y*c.w+x] < c.above
	}
	for ry := rg.y0; ry < rg.y1; ry++ {
		for rx := rg.x0; rx < rg.x1; rx++ {
			if part.labels[ry*part.w+rx] != part.label {
				continue
			}
			fx, fy := rx+part.ox, ry+part.oy
			if low(fx-coverTouch, fy) || low(fx+coverTouch, fy) || low(fx, fy-coverTouch) || low(fx, fy+coverTouch) {
				return true
			}
		}
	}
	return false
}

// edgesUnder counts the samples of the outlines of the disks at cover
// level (one more than their stacking level) that lie under fit f, the
// chit of template t (a pixel more than tokenInset within its outline),
// and how many of them lie on an edge of the image across the disk's
// outline. A chit lying across a disk's edge hides it; a patch of the
// chit's colour that is the disk's rim or its art shows it.
func (d *Detector) edgesUnder(f tokenFit, t *tokenTemplate, disks []diskFit, level uint8, edges []byte) (under, onEdge int) {
	pl := d.plane
	// The inverse of the fit's local map: detection pixels to cm along
	// the chit's axis and across it.
	det := f.jx.X*f.jy.Y - f.jx.Y*f.jy.X
	if math.Abs(det) < 1e-9 {
		return 0, 0
	}
	ax := pt{math.Cos(f.angle), math.Sin(f.angle)}
	local := func(p pt) pt {
		q := p.sub(f.centre)
		tx, ty := (f.jy.Y*q.X-f.jy.X*q.Y)/det, (f.jx.X*q.Y-f.jx.Y*q.X)/det
		return pt{ax.X*tx + ax.Y*ty, -ax.Y*tx + ax.X*ty}
	}
	k := t.kind
	hl, hw := k.Length/2-tokenInset-pl.pixel, k.Width/2-tokenInset-pl.pixel
	inside := func(q pt) bool {
		if k.Shape == "round" {
			return q.len() < (hl+hw)/2
		}
		return math.Abs(q.X) < hl && math.Abs(q.Y) < hw
	}
	for _, g := range disks {
		// Only the disks the chit lies on, and near enough to reach.
		if g.level+1 != int(level) || g.c.C.sub(f.tableC).len() > g.c.R+math.Hypot(k.Length, k.Width)+1 {
			continue
		}
		n := max(coverPoints, int(2*math.Pi*g.c.R/(0.5*pl.pixel)))
		for i := range n {
			a := 2 * math.Pi * float64(i) / float64(n)
			dir := pt{math.Cos(a), math.Sin(a)}
			p, ok1 := pl.detection(g.c.C.add(dir.scale(g.c.R)), g.height)
			if !ok1 || !inside(local(p)) {
				continue
			}
			o, ok2 := pl.detection(g.c.C.add(dir.scale(g.c.R+0.1)), g.height)
			if !ok2 {
				continue
			}
			under++
			if d.edgeAcross(int(math.Round(p.X)), int(math.Round(p.Y)), o.sub(p), edges) {
				onEdge++
			}
		}
	}
	return under, onEdge
}
