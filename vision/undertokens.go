package vision

import (
	"math"
	"slices"
)

// Disks under chits
//
// A chit lying on a disk hides part of its outline, as a disk lying on it
// does; but the chits are found after the disks (their search asks which
// disks they lie on), so verify judged such a disk on an outline broken
// where a chit lies across it, and a small one (a spell with a damage
// marker on its edge) often fell short. Once the chits are found, the
// circles verify did not keep are judged again with the chits lying
// across their outline as what may hide it: one seen almost whole there
// (wholeOnTop) is measured like any other disk, and kept if it passes
// the same tests of art and size.

// disksUnderTokens returns, with a calibration, the disks found among the
// circles verify did not keep (d.rejected) once the chits toks lying
// across their outlines are taken as hiding it, measured (refined and
// fitted alone) among the disks kept, fits. A circle of about a kept
// disk's place, or with no chit across its outline, is not looked at.
func (d *Detector) disksUnderTokens(toks []*tokenShape, fits []diskFit, em edgeMap, colour bgrImage) []diskFit {
	pl := d.plane
	if pl == nil || pl.cal == nil || len(toks) == 0 || len(d.rejected) == 0 {
		return nil
	}
	var found []candidate
	var hide []circle
	for _, c := range d.rejected {
		if !d.catalogueSize(c.c.R) || nearAny(c.c, fits, found) {
			continue
		}
		// The chits crossing its outline: reaching both inside and
		// outside it (a round chit's own outline, drawn out by blur to
		// a circle around it, is not crossed by it).
		hide = chitsAcross(c.c, toks, hide[:0])
		if len(hide) == 0 {
			continue
		}
		img := pl.outlineInImage(c.c)
		cov, length := pl.coverageOf(c.c, &img, em, hide, coverageProbes(c.c, pl.pixel))
		if cov < wholeOnTop || length < d.minSupport() {
			continue
		}
		c.coverage = cov
		found = append(found, c)
	}
	if len(found) == 0 {
		return nil
	}
	// Probed among the disks kept that overlap them, which may cover part
	// of their outline (refine looks at no others).
	all := slices.Clone(found)
	for _, f := range fits {
		if slices.ContainsFunc(found, func(c candidate) bool { return c.c.C.sub(f.probed.C).len() < c.c.R+f.probed.R }) {
			all = append(all, candidate{c: f.probed, within: f.within, onTop: f.onTop})
		}
	}
	more := d.refine(all, colour)[:len(found)]
	d.fitAlone(more)
	d.settleStrays(more, colour)
	// Judged as verify judges a circle kept on its own: as lying on the
	// disks it overlaps (see dropNewArt).
	for i := range more {
		more[i].within, more[i].onTop = placeAmong(more[i].c, fits, withinPixels*pl.pixel)
	}
	return more
}

// chitsAcross appends to out the circles around the chits toks that
// cross circle c's outline, reaching both inside and outside it (a round
// chit's own outline, drawn out by blur to a circle around it, is not
// crossed by it).
func chitsAcross(c circle, toks []*tokenShape, out []circle) []circle {
	for _, t := range toks {
		r := t.reach()
		if dist := t.centre.sub(c.C).len(); dist+r > c.R && dist-r < c.R {
			out = append(out, circle{t.centre, r})
		}
	}
	return out
}

// nearAny reports whether circle c lies about where a disk fitted or a
// circle found lies: their centres within half the smaller radius, or,
// of a disk of its size, within its radius (a disk found off its place,
// drawn by the chit lying on it: the two cannot both be).
func nearAny(c circle, fits []diskFit, found []candidate) bool {
	for _, f := range fits {
		dist := c.C.sub(f.probed.C).len()
		if dist < 0.5*min(c.R, f.probed.R) || dist < c.R && math.Abs(f.probed.R-c.R) < sizedShare*c.R {
			return true
		}
	}
	for _, o := range found {
		if c.C.sub(o.c.C).len() < 0.5*min(c.R, o.c.R) {
			return true
		}
	}
	return false
}

// placeAmong reports whether circle c lies wholly inside one of the
// disks fitted, reaching past it by no more than tol (as verify judges:
// withinPixels), and whether it overlaps any.
func placeAmong(c circle, fits []diskFit, tol float64) (within, overlaps bool) {
	for _, f := range fits {
		d := c.C.sub(f.c.C).len()
		within = within || f.c.R > c.R && d+c.R <= f.c.R+tol
		overlaps = overlaps || d < c.R+f.c.R
	}
	return within, overlaps
}

// dropNewArt removes, of fits, those from index from on that look like
// art or a circle of no size (dropArtOnTop, dropArtWithin,
// dropImplausible; their rims read where none of the chits toks lying
// across them is), and reports whether it removed any.
func (d *Detector) dropNewArt(fits *[]diskFit, from int, toks []*tokenShape, colour bgrImage) bool {
	n := len(*fits)
	all := circlesOf(*fits)
	kept := (*fits)[:from]
	for _, f := range (*fits)[from:] {
		d.chitsOver = chitsAcross(f.c, toks, d.chitsOver[:0])
		if !d.artOnTop(f, all, colour) && !d.artWithin(f, colour) && d.plausibleSize(f.c.R) {
			kept = append(kept, f)
		}
	}
	d.chitsOver = d.chitsOver[:0]
	*fits = kept
	return len(kept) < n
}
