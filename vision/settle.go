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
// A disk more than wellOffShare off its nearest size is tried at the next
// larger size too (its rim's inner edge taken for the outline), probed
// afresh around it: that outline may lie beyond the first probes. The fit
// kept is the one whose radius is nearer its size and on which most
// probes find a step (within onCirclePixels), if more than on the first.
// Disks of no catalogue size (terrain, or a disk measured far off any
// size) are left as they are. It reports whether it changed any.
func (d *Detector) settleOnSizes(fits []diskFit, above [][]int, colour bgrImage) bool {
	pl := d.plane
	if pl == nil || pl.cal == nil {
		return false
	}
	changed := false
	for i := range fits {
		f := &fits[i]
		want := float64(d.nearestSize(models.Centimetres(f.alone.R)).Radius)
		off := math.Abs(f.alone.R - want)
		if off <= settleShare*want || off > 2*d.opt.SnapTolerance*want {
			continue
		}
		sizes := [2]float64{want, 0}
		// Far off its nearest size, a disk may be the next larger size
		// measured on its rim's inner edge.
		if off > wellOffShare*want {
			if larger, ok := d.nextLargerSize(f.alone.R); ok && larger != want && larger-f.alone.R <= maxRimWidth {
				sizes[1] = larger
			}
		}
		d.settled = append(d.settled[:0], f.samples...)
		d.overlaps = append(d.overlaps[:0], above[i]...)
		level, own, probed := f.level, f.samples, f.probed
		best, bestRMS, bestSupport, found := f.alone, f.aloneRMS, d.support(f, f.alone, fits), false
		var bestProbed circle
		for j, size := range sizes {
			if size == 0 {
				continue
			}
			f.samples, f.probed = own, probed
			copy(f.samples, d.settled)
			if j == 1 {
				// The larger size's outline may lie beyond the probes:
				// probe around it afresh.
				f.probed = d.onTable(circle{f.alone.C, size}, d.topHeight(0))
				fresh := d.refine([]candidate{{c: f.probed}}, colour)
				f.samples = fresh[0].samples
			}
			c := d.settleOn(f, fits, size, colour)
			if math.Abs(c.R-size) >= math.Abs(f.alone.R-size) {
				continue
			}
			if n := d.support(f, c, fits); n > bestSupport {
				best, bestRMS, bestSupport, bestProbed, found = c, f.rms, n, f.probed, true
				d.bestSamples = append(d.bestSamples[:0], f.samples...)
			}
		}
		f.samples, f.probed = own, probed
		if found {
			f.samples = append(f.samples[:0], d.bestSamples...)
			f.alone, f.aloneRMS, f.probed = best, bestRMS, bestProbed
			changed = true
		} else {
			copy(f.samples, d.settled)
		}
		f.c, f.rms, f.level = f.alone, f.aloneRMS, level
	}
	return changed
}

// settleOn fits disk f again, settleRounds times, on the steps of its
// probes nearest the circle of radius want around its last fit, and
// returns the last fit (the samples keep the steps taken).
func (d *Detector) settleOn(f *diskFit, fits []diskFit, want float64, colour bgrImage) circle {
	inDepth := d.rimSampleDepth()
	c := f.alone
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
	return c
}

// onTable returns circle c, lying height cm above the table, as the
// camera sees it on the table: scaled about the camera's foot.
func (d *Detector) onTable(c circle, height float64) circle {
	pl := d.plane
	k := pl.eyeH / (pl.eyeH - height)
	return circle{pl.eye.add(c.C.sub(pl.eye).scale(k)), c.R * k}
}

// nextLargerSize returns the smallest catalogue size larger than r.
func (d *Detector) nextLargerSize(r float64) (float64, bool) {
	best, ok := math.Inf(1), false
	for _, s := range d.opt.Disks {
		if sr := float64(s.Radius); sr > r && sr < best {
			best, ok = sr, true
		}
	}
	return best, ok
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
	// wellOffShare is how far off its nearest size, as a share of it, a
	// disk's radius must lie for settleOnSizes to try the next larger
	// size too.
	wellOffShare = 0.025
	// settleRounds is how many times settleOnSizes chooses the steps and
	// fits the disk again.
	settleRounds = 3
)
