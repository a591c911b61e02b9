package vision

import (
	"math"
	"slices"
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
}

// hides reports whether the cover hides detection pixel (x, y); a nil
// cover hides nothing.
func (c *coverView) hides(x, y int) bool {
	return c != nil && x >= 0 && y >= 0 && x < c.w && y < c.h && c.level[y*c.w+x] > c.above
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
