package vision

import (
	"math"

	"tableref/models"
)

// settleOnSizes measures again the disks whose circle, fitted as if each
// lay alone, is of a catalogue size only roughly: more than settleShare
// off the nearest, within twice the snap tolerance. Part of the outline
// was taken on another edge its probes found, the rim's inner edge or a
// shadow's edge outside it. Each probe no disk above covers takes instead
// the step nearest the circle of that size around the fitted centre
// (within settlePixels), and the disk is fitted again, a few times over.
// The new fit is kept if its radius is nearer the size and more of the
// probes find a step on it (within onCirclePixels) than on the first.
// Disks of no catalogue size (terrain, or a disk measured far off any
// size) are left as they are. It reports whether it changed any.
func (d *Detector) settleOnSizes(fits []diskFit, above [][]int, colour bgrImage) bool {
	pl := d.plane
	if pl == nil || pl.cal == nil {
		return false
	}
	changed := false
	inDepth := d.rimSampleDepth()
	for i := range fits {
		f := &fits[i]
		want := float64(d.nearestSize(models.Centimetres(f.alone.R)).Radius)
		if off := math.Abs(f.alone.R - want); off <= settleShare*want || off > 2*d.opt.SnapTolerance*want {
			continue
		}
		d.settled = append(d.settled[:0], f.samples...)
		d.overlaps = append(d.overlaps[:0], above[i]...)
		c, level := f.alone, f.level
		for range settleRounds {
			target := circle{c.C, want}
			for k := range f.samples {
				s := &f.samples[k]
				s.ok = false
				pk, found := d.stepOn(s, target, fits, settlePixels)
				if !found {
					continue
				}
				s.u, s.v, s.strength = s.u0+s.du*pk.t, s.v0+s.dv*pk.t, pk.strength
				r, g, b, in := colour.at(s.u-s.du*inDepth, s.v-s.dv*inDepth)
				s.ok, s.inner = in, [3]float64{r, g, b}
			}
			f.c, f.level = c, 0
			// The steps lie near a circle already: few strays.
			d.fitOne(f, fits, nil, true, 1)
			c = f.c
		}
		if math.Abs(c.R-want) < math.Abs(f.alone.R-want) && d.support(f, c, fits) > d.support(f, f.alone, fits) {
			f.alone, f.aloneRMS, f.level = c, f.rms, level
			changed = true
			continue
		}
		copy(f.samples, d.settled)
		f.c, f.rms, f.level = f.alone, f.aloneRMS, level
	}
	return changed
}

// stepOn returns the step of sample s's probe nearest where circle c (on
// the table, its top face one disk high) crosses it, if within tol
// pixels and no disk lying over the one measured (d.overlaps) covers it
// there.
func (d *Detector) stepOn(s *sample, c circle, fits []diskFit, tol float64) (peak, bool) {
	if len(s.peaks) == 0 {
		return peak{}, false
	}
	q := c.at(s.angle)
	for _, j := range d.overlaps {
		if fits[j].alone.dist(q) < d.plane.pixel {
			return peak{}, false
		}
	}
	eu, ev, in := d.plane.toImage(q, d.topHeight(0)-d.wallDrop(q, s.angle))
	if !in {
		return peak{}, false
	}
	te := (eu-s.u0)*s.du + (ev-s.v0)*s.dv
	best, bestD := -1, tol
	for j, pk := range s.peaks {
		if dd := math.Abs(pk.t - te); dd < bestD {
			best, bestD = j, dd
		}
	}
	if best < 0 {
		return peak{}, false
	}
	return s.peaks[best], true
}

// support counts the probes of disk f that find a step on circle c
// (within onCirclePixels).
func (d *Detector) support(f *diskFit, c circle, fits []diskFit) int {
	n := 0
	for k := range f.samples {
		if _, ok := d.stepOn(&f.samples[k], c, fits, onCirclePixels); ok {
			n++
		}
	}
	return n
}

const (
	// settleShare is how far, as a share of the nearest catalogue size, a
	// disk's radius fitted alone may lie from it before settleOnSizes
	// measures it again.
	settleShare = 0.01
	// settlePixels is how far from the circle of the catalogue size,
	// full-frame pixels along a probe, settleOnSizes takes a step.
	settlePixels = 1.5
	// onCirclePixels is how near a circle, full-frame pixels along a
	// probe, a step supports it.
	onCirclePixels = 0.75
	// settleRounds is how many times settleOnSizes chooses the steps and
	// fits the disk again.
	settleRounds = 3
)
