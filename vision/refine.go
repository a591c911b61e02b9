package vision

import (
	"math"
	"slices"
)

// sample is one radial probe of a disk's outline in the full frame.
type sample struct {
	angle    float64    // on the disk's circle, working plane
	u, v     float64    // the edge found, full-frame pixels
	strength float64    // grey-level step across the edge
	ok       bool       // an edge was found in the window
	inner    [3]float64 // colour (r, g, b) just inside the edge found
	near     [3]float64 // colour a pixel inside the edge found (a thin rim's)
	w        pt         // the edge on the table, as fitAlone mapped it
	wOK      bool       // w is set
	// The probe the edge was found on: its start and unit direction
	// outwards (pixels), and every step found along it, less a lone
	// disk's shadow's (settleOnSizes may choose another).
	u0, v0, du, dv float64
	peaks          []peak
}

// diskFit is a disk being measured.
type diskFit struct {
	c        circle // working plane; after fitPlane, on the top face's height
	probed   circle // the circle refine probed around, at height 0
	alone    circle // fitted as if it lay alone on the table (fitAlone)
	aloneRMS float64
	coverage float64
	samples  []sample
	level    int     // stacking level: 0 on the table, 1 on one disk, ...
	height   float64 // height of the top face, cm (0 without calibration)
	visible  float64 // fraction of the outline not covered by disks above
	rms      float64 // RMS residual of the final fit, working units
	within   bool    // lies wholly inside a larger disk (see hasRim)
	onTop    bool    // verified on its own, on the disk it lies in or those it lies across (see rimStandsOut)
}

// take makes step pk of its probe the sample's edge, with the colour
// inDepth pixels inside it; the sample is ok if that lies in the frame.
func (s *sample) take(pk peak, colour bgrImage, inDepth float64) {
	s.u, s.v, s.strength = s.u0+s.du*pk.t, s.v0+s.dv*pk.t, pk.strength
	r, g, b, in := colour.at(s.u-s.du*inDepth, s.v-s.dv*inDepth)
	s.ok, s.inner = in, [3]float64{r, g, b}
	r, g, b, _ = colour.at(s.u-s.du*nearDepth, s.v-s.dv*nearDepth)
	s.near = [3]float64{r, g, b}
}

// refine probes every candidate's outline on the full-resolution frame:
// along the normal of the circle, within a few pixels, it finds the
// strongest grey-level step and locates it to a fraction of a pixel.
func (d *Detector) refine(cands []candidate, colour bgrImage) []diskFit {
	pl := d.plane
	out := make([]diskFit, 0, len(cands))
	type probe struct {
		u0, v0, du, dv float64 // start, unit direction outwards (pixels)
		l              float64 // length, pixels
		peaks          []peak
		free           bool // no other disk may cover it
	}
	var probes []probe
	var offsets []float64
	var near []int
	// Every probe's peaks; theirs and the samples' are slices of it, kept
	// in the detector until the next frame (refine runs more than once a
	// frame: it appends).
	peaks := d.peaks
	defer func() { d.peaks = peaks }()
	var prof profile
	inDepth := d.rimSampleDepth()
	for ci, cd := range cands {
		f := diskFit{c: cd.c, probed: cd.c, coverage: cd.coverage, within: cd.within, onTop: cd.onTop}
		// The candidates this one overlaps: only they may cover its probes
		// (one lying wholly on a disk covers nothing the disk does not;
		// one lying across its edge does).
		near = near[:0]
		for j, o := range cands {
			if j != ci && !(o.onTop && o.within) && cd.c.C.sub(o.c.C).len() < cd.c.R+o.c.R {
				near = append(near, j)
			}
		}
		rPx := cd.c.R / pl.pixel * pl.scale
		n := int(math.Round(2 * math.Pi * rPx / 2.5))
		n = min(max(n, 64), 512)
		half := probeHalfWidth * pl.pixel // search half-width, working units
		probes, offsets = probes[:0], offsets[:0]
		f.samples = make([]sample, 0, n)
		// A probe's slice keeps its array should the buffer grow.
		peaks = slices.Grow(peaks, 4*n)
		for k := range n {
			a := 2 * math.Pi * float64(k) / float64(n)
			q := cd.c.at(a)
			nrm := pt{math.Cos(a), math.Sin(a)}
			u0, v0, ok0 := pl.toImage(q.sub(nrm.scale(half)), 0)
			u1, v1, ok1 := pl.toImage(q.add(nrm.scale(half)), 0)
			p := probe{u0: u0, v0: v0}
			if l := hypot(u1-u0, v1-v0); ok0 && ok1 && l >= 1 {
				p.du, p.dv, p.l = (u1-u0)/l, (v1-v0)/l, l
				start := len(peaks)
				peaks = edgePeaks(colour, u0, v0, u1, v1, peaks, &prof)
				p.peaks = peaks[start:len(peaks):len(peaks)]
				p.free = !coveredByCandidate(q, cands, near, half)
			}
			probes = append(probes, p)
		}
		// A shadow's edge (the table outside, the same table darker
		// inside) is not the outline of a disk lying alone, unless it is
		// so all round: then it is a grey rim on a grey table, or the
		// like. (Where disks overlap, a shadow falls on a disk's art and
		// the edges there are better left to outermostStrong: measured.)
		shadowed, seen := 0, 0
		for _, p := range probes {
			if i := outermostStrong(p.peaks); i >= 0 {
				seen++
				if p.peaks[i].shadow {
					shadowed++
				}
			}
		}
		if len(near) == 0 && shadowed > 0 && 2*shadowed < seen {
			for k := range probes {
				probes[k].peaks = slices.DeleteFunc(probes[k].peaks, func(pk peak) bool { return pk.shadow })
			}
		}
		// Only probes that no other disk may cover vote for where the
		// outline lies.
		free := 0
		for _, p := range probes {
			if p.free && p.l > 0 {
				free++
				for _, pk := range p.peaks {
					offsets = append(offsets, pk.t/p.l)
				}
			}
		}
		// The outline is the outermost offset along the probes where many
		// of them find a step: the rim's inner edge and the art lie inside
		// it, and a stray shadow or texture is not shared around the disk.
		// A disk alone and seen from nearly above: its outline lies at one
		// height all round, where most of its probes agree. Otherwise (a
		// neighbour covers part of it, or its wall shows on one side) each
		// probe takes its outermost strong step.
		alone := len(near) == 0 && d.seenFromAbove(cd.c)
		at := outermostMode(offsets, max(free, 1))
		for k, p := range probes {
			s := sample{angle: 2 * math.Pi * float64(k) / float64(n), u0: p.u0, v0: p.v0, du: p.du, dv: p.dv, peaks: p.peaks}
			if p.l > 0 && len(p.peaks) > 0 {
				best := -1
				if alone {
					bestD := modeBand
					for i, pk := range p.peaks {
						if dd := math.Abs(pk.t/p.l - at); dd < bestD {
							best, bestD = i, dd
						}
					}
				} else {
					best = outermostStrong(p.peaks)
				}
				if best >= 0 {
					s.take(p.peaks[best], colour, inDepth)
				}
			}
			f.samples = append(f.samples, s)
		}
		out = append(out, f)
	}
	return out
}

// probeHalfWidth is how far, in detection pixels on the table, refine
// probes either side of a candidate's circle.
const probeHalfWidth = 2.5

// probeSpread is how far apart, full-frame pixels across a probe, are the
// three lines whose colours edgePeaks averages. On 240 rendered tables
// (seeds 1-40 and 101-140, with groundShare's shadowed ground and
// rimAllRound), against one line: centre error medians on the hard tier
// 0.63 and 0.65 mm against 0.68 and 0.67, the medium tier's 95th
// percentiles 0.95 and 1.34 mm against 1.10 and 1.41; 7 disks more found
// and 1 phantom fewer; 3 disks more of the wrong size (121 against 118),
// through OpenCV's decoder 11 fewer (114 against 125) and 5 phantoms
// fewer. Reading three lines for one costs about 5 % of the 40-disk
// stream's CPU.
const probeSpread = 1

// outermostMode returns, of offsets (fractions of a probe's length, from
// inside to outside) found by n probes, the outermost one shared by at
// least a quarter of the probes, or the most shared one.
func outermostMode(offsets []float64, n int) float64 {
	const bins = 40
	var h [bins]int
	for _, o := range offsets {
		if b := int(o * bins); b >= 0 && b < bins {
			h[b]++
		}
	}
	best, bestN := bins/2, -1
	for b := bins - 1; b >= 0; b-- {
		c := h[b]
		if b > 0 {
			c += h[b-1]
		}
		if b < bins-1 {
			c += h[b+1]
		}
		if 4*c >= n {
			return (float64(b) + 0.5) / bins
		}
		if c > bestN {
			best, bestN = b, c
		}
	}
	return (float64(best) + 0.5) / bins
}

// profile is edgePeaks' scratch: the colours along a probe and their
// derivative.
type profile struct {
	colour, left, right [][3]float64
	der                 []float64
}

// peak is a colour step on a probe: its distance t from the probe's start
// in pixels, its strength, and whether it looks like a shadow's edge (see
// shadowStep).
type peak struct {
	t, strength float64
	shadow      bool
}

// edgePeaks appends to out the colour steps on the segment from (u0, v0)
// (inside) to (u1, v1) (outside) at least a quarter as strong as the
// strongest, each located to a fraction of a pixel (a parabola through
// the peak of the colour derivative, see stepDist). Colour, not grey: a
// red rim on a mauve table is as light as the table. Each colour is the
// mean of three points across the probe, probeSpread pixels apart: the
// sensor's noise and the compression's blocks average out along the
// edge, which runs across the probe, and the step stays where it was. sc
// is scratch space.
func edgePeaks(img bgrImage, u0, v0, u1, v1 float64, out []peak, sc *profile) []peak {
	l := hypot(u1-u0, v1-v0)
	if l < 1 {
		return out
	}
	const step = 0.5
	n := min(int(l/step)+1, 1024)
	// The scratch is not cleared: only what is written below is read.
	sc.colour = slices.Grow(sc.colour[:0], n+2)[:n+2]
	sc.der = slices.Grow(sc.der[:0], n+2)[:n+2]
	prof, der := sc.colour, sc.der
	du, dv := (u1-u0)/l*step, (v1-v0)/l*step
	if !img.line(u0-du, v0-dv, du, dv, prof) {
		return out
	}
	// Near the frame's border a line beside the probe may leave the
	// frame: the probe's own line then serves alone.
	sc.left = slices.Grow(sc.left[:0], n+2)[:n+2]
	sc.right = slices.Grow(sc.right[:0], n+2)[:n+2]
	nu, nv := -dv/step*probeSpread, du/step*probeSpread
	if img.line(u0-du-nu, v0-dv-nv, du, dv, sc.left) && img.line(u0-du+nu, v0-dv+nv, du, dv, sc.right) {
		for i := range prof {
			for k := range 3 {
				prof[i][k] = (prof[i][k] + sc.left[i][k] + sc.right[i][k]) / 3
			}
		}
	}
	best := 0.0
	for i := 1; i <= n; i++ {
		der[i] = stepDist(prof[i+1], prof[i-1]) / 2
		best = max(best, der[i])
	}
	if best < 2 {
		return out
	}
	for i := 2; i < n; i++ {
		if der[i] < 0.25*best || der[i] < der[i-1] || der[i] < der[i+1] {
			continue
		}
		a, b, c := der[i-1], der[i], der[i+1]
		off := 0.0
		if den := a - 2*b + c; den != 0 {
			off = 0.5 * (a - c) / den
		}
		// The colours a pixel and a half either side.
		in, out2 := prof[max(i-3, 0)], prof[min(i+3, n+1)]
		out = append(out, peak{(float64(i-1) + off) * step, b * 2, shadowStep(in, out2)})
	}
	return out
}

// fitAlone fits each disk's circle on the table plane as if it lay alone
// on the table (its top face one disk high), from all its samples, and
// keeps each sample's table point: the stacking order is read on these
// circles and points.
func (d *Detector) fitAlone(fits []diskFit) {
	for i := range fits {
		f := &fits[i]
		f.c, f.level = f.probed, 0
		d.fitOne(f, fits, nil, true, reweighRounds)
		f.alone, f.aloneRMS = f.c, f.rms
	}
}

// fitPlane fits each disk's circle on the table plane at the height of
// its top face, from the samples not covered by the disks above it. A disk
// on the table with none above it keeps its fit from fitAlone. With a
// memo (nil: none), a disk fitted before from the same samples, at the
// same level and under disks whose circles are the same (see measure),
// takes that fit again; every fit made is noted in it.
func (d *Detector) fitPlane(fits []diskFit, above [][]int, memo planeMemo) {
	var over []circle
	for i := range fits {
		f := &fits[i]
		if f.level > 0 || len(above[i]) > 0 {
			// What the fit depends on besides the samples: the level and
			// the circles of the disks above, as they stand now (those
			// fitted before this one are on their planes already).
			over = over[:0]
			for _, j := range above[i] {
				over = append(over, fits[j].c)
			}
			if m, ok := memo[f.alone]; ok && m.probed == f.probed && m.level == f.level && slices.Equal(m.above, over) {
				f.c, f.rms, f.height, f.visible = m.c, m.rms, m.height, m.visible
				continue
			}
			f.c = f.alone
			d.fitOne(f, fits, above[i], false, reweighRounds)
			if memo != nil {
				memo[f.alone] = planeFit{probed: f.probed, level: f.level, above: slices.Clone(over), c: f.c, rms: f.rms, height: f.height, visible: f.visible}
			}
			continue
		}
		// As fitAlone left it (a reading of the order before may have
		// lifted it).
		f.c, f.rms, f.height, f.visible = f.alone, f.aloneRMS, d.topHeight(0), 1
	}
}

// planeMemo holds, by a disk's circle fitted alone, its last fit on the
// table plane (fitPlane) and what that was fitted from besides its
// samples; it serves while the samples do not change.
type planeMemo map[circle]planeFit

// planeFit is a disk's fit on the table plane at its level, under disks
// whose circles were above, probed around the circle probed.
type planeFit struct {
	probed               circle
	level                int
	above                []circle
	c                    circle
	rms, height, visible float64
}

// topHeight returns the height of the top face of a disk at the given
// stacking level, cm (0 without a calibration: pixels have no height).
func (d *Detector) topHeight(level int) float64 {
	if d.plane.cal == nil {
		return 0
	}
	return float64(level+1) * float64(d.opt.Thickness)
}

// fitOne fits disk f on the table plane at the height of its top face
// (by its level), from its samples not covered by the disks above (idx),
// with its circle f.c as the first guess, reweighing strays rounds times
// (see fitCircleRobust); keep stores each sample's table point.
func (d *Detector) fitOne(f *diskFit, fits []diskFit, above []int, keep bool, rounds int) {
	pl := d.plane
	f.height = d.topHeight(f.level)
	// The detector's scratch: fitCircleRobust keeps no point.
	pts, strengths := d.fitPts[:0], d.fitStrengths[:0]
	defer func() { d.fitPts, d.fitStrengths = pts, strengths }()
	for _, s := range f.samples {
		if s.ok {
			strengths = append(strengths, s.strength)
		}
	}
	floor := 0.0
	if len(strengths) > 0 {
		floor = 0.25 * nth(strengths, len(strengths)/2) // the median; strengths are scratch
	}
	valid := 0
	for k := range f.samples {
		s := &f.samples[k]
		q0 := f.c.at(s.angle)
		var w pt
		ok := false
		if s.ok {
			w, ok = pl.toWork(s.u, s.v, f.height-d.wallDrop(q0, s.angle))
		}
		if keep {
			s.w, s.wOK = w, ok
		}
		if coveredBy(q0, fits, above, 1.5*pl.pixel) {
			continue
		}
		valid++
		if ok && s.strength >= floor {
			pts = append(pts, w)
		}
	}
	f.visible = float64(valid) / float64(max(len(f.samples), 1))
	if len(pts) < 8 {
		return
	}
	c, rms, err := fitCircleRobust(pts, 0.5*pl.pixel/pl.scale, rounds)
	// The probes were laid about a circle on the table: a disk's top face
	// lies nearer the camera's foot than where the camera sees it there,
	// by millimetres two disks high. The fit is held to the probed centre
	// raised to its height.
	probed := pl.raised(f.probed.C, f.height)
	if err != nil || math.Abs(c.R-f.probed.R) > 0.2*f.probed.R || c.C.sub(probed).len() > 0.2*f.probed.R {
		return
	}
	f.c, f.rms = c, rms
}

// shadowStep reports whether a step from colour out (outside) to in
// (inside) looks like the edge of a shadow: inside, the same colour as
// outside, darker (a quarter to 85 % as bright), its chromaticity within
// shadowChroma.
func shadowStep(in, out [3]float64) bool {
	so, si := out[0]+out[1]+out[2], in[0]+in[1]+in[2]
	if so < 90 || si < 0.25*so || si > 0.85*so {
		return false
	}
	d := 0.0
	for c := range 3 {
		d += math.Abs(in[c]/si - out[c]/so)
	}
	return d < shadowChroma
}

// shadowChroma is how far (the sum over r, g, b of the differences of
// their shares) a shadowed colour's chromaticity may lie from the lit one.
const shadowChroma = 0.06

// coveredBy reports whether q lies inside one of the disks idx, by more
// than margin.
func coveredBy(q pt, fits []diskFit, idx []int, margin float64) bool {
	for _, j := range idx {
		if fits[j].c.dist(q) < -margin {
			return true
		}
	}
	return false
}

// strengthFloor returns the median sample strength of a disk.
func strengthFloor(f diskFit) float64 {
	var s []float64
	for _, x := range f.samples {
		if x.ok {
			s = append(s, x.strength)
		}
	}
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// wallDrop returns how far below the top face the outline is seen at the
// point q of a disk's circle whose outward normal has angle a. Where the
// disk's side faces the camera, its 2 mm wall shows as a thin band below
// the rim, and the blurred outline lies most of the way down it (wallShare;
// the whole way left centres 0.3-0.5 mm away from the camera on rendered
// tables, half way 0.1 mm towards it); elsewhere the outline is the top
// face's edge.
func (d *Detector) wallDrop(q pt, a float64) float64 {
	pl := d.plane
	if pl.cal == nil {
		return 0
	}
	to := pl.eye.sub(q)
	l := to.len()
	if l == 0 {
		return 0
	}
	c := (math.Cos(a)*to.X + math.Sin(a)*to.Y) / l
	return wallShare * float64(d.opt.Thickness) * min(1, max(0, c)/0.25)
}

// Rim test depths, cm: the rim band just inside the edge, and the art
// further in.
const (
	rimDepth = 0.1
	artDepth = 0.55
)

// hasRim reports whether a disk shows a rim: a band of one colour just
// inside its edge, differing from what lies further in. Diskwars disks are
// printed with coloured rims; a circle of a disk's art is not.
func (d *Detector) hasRim(f diskFit, img bgrImage) bool {
	if f.c.R <= artDepth+0.1 {
		return true
	}
	rim, in := d.ringColours(f, img, -rimDepth, -artDepth)
	if len(rim) < d.ringLeast() {
		return false
	}
	var ch [3][]float64
	for _, c := range rim {
		for k := range 3 {
			ch[k] = append(ch[k], c[k])
		}
	}
	ref := [3]float64{median(ch[0]), median(ch[1]), median(ch[2])}
	uniform, differs := 0, 0
	for i := range rim {
		if rgbDist(rim[i], ref) <= rimContrast {
			uniform++
		}
		if rgbDist(rim[i], in[i]) >= rimContrast {
			differs++
		}
	}
	return uniform*10 >= len(rim)*7 && differs*2 >= len(rim)
}

// ringSamples is how many angles ringColours reads around a disk.
const ringSamples = 48

// ringLeast is the fewest of the ringSamples a rim is judged on: half,
// or a quarter where chits lying on the disk hide part of it.
func (d *Detector) ringLeast() int {
	if len(d.chitsOver) > 0 {
		return ringSamples / 4
	}
	return ringSamples / 2
}

// ringColours reads the frame's colour around disk f at two distances
// from its outline, cm (negative inside), at ringSamples angles: the pairs
// of colours where both lie in the frame and under none of the chits
// d.chitsOver, in order of angle.
func (d *Detector) ringColours(f diskFit, img bgrImage, off0, off1 float64) (a, b [][3]float64) {
	return d.ringColoursOn(f, img, off0, off1, nil)
}

// ringColoursOn is ringColours where the far point of a pair lies on one
// of the circles on (all of them when on is nil).
func (d *Detector) ringColoursOn(f diskFit, img bgrImage, off0, off1 float64, on []circle) (a, b [][3]float64) {
	pl := d.plane
	for k := range ringSamples {
		ang := 2 * math.Pi * float64(k) / ringSamples
		q0, q1 := circle{f.c.C, f.c.R + off0}.at(ang), circle{f.c.C, f.c.R + off1}.at(ang)
		if insideAny(q0, d.chitsOver, 0) || insideAny(q1, d.chitsOver, 0) {
			continue // under a chit lying on the disk
		}
		if on != nil && !insideAny(q1, on, 0) {
			continue
		}
		u0, v0, ok0 := pl.toImage(q0, f.height)
		u1, v1, ok1 := pl.toImage(q1, f.height)
		if !ok0 || !ok1 {
			continue
		}
		c0, ok0 := img.bilinear(u0, v0)
		c1, ok1 := img.bilinear(u1, v1)
		if ok0 && ok1 {
			a, b = append(a, c0), append(b, c1)
		}
	}
	return a, b
}

// stepDist is how far apart colours a and b (r, g, b) are for placing a
// step: the Euclidean distance in a space whose first axis is the luma
// (Rec. 601, counted on all three channels) and whose others are what
// the channels differ beyond it. A grey step counts as in RGB, a step in
// green (most of the luma) 1.38 times as much, one in blue 0.92 times.
// Chosen by measurement: on 240 rendered tables (seeds 1-40 and
// 101-140) against RGB distance, 100 disks of the wrong size against 121
// (through OpenCV's decoder 108 against 114), 49 overlapping pairs
// stacked wrong against 58 (67 against 73), 2 disks fewer found and 3
// phantoms more (3 disks more, 5 phantoms more). Weighing the part
// beyond the luma by 0.5, 0.8 or 1.5: 118, 115 and 109 disks of the
// wrong size, and at 0.5 worse centres on the easy and medium tiers. On
// synthetic JPEG steps it places a step neither better nor worse than
// RGB distance (0.2 to 0.9 pixels root mean square, by the colours).
func stepDist(a, b [3]float64) float64 {
	d0, d1, d2 := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	y := 0.299*d0 + 0.587*d1 + 0.114*d2
	c0, c1, c2 := d0-y, d1-y, d2-y
	return math.Sqrt(3*y*y + c0*c0 + c1*c1 + c2*c2)
}

// rgbDist is the distance between two colours, 0..255 a channel.
func rgbDist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// rimStandsOut reports whether a disk's rim differs from what lies just
// outside it, around five sixths of the circle or more: a disk lying on
// another shows its rim against the art below (a rendered spell: 44 of 48
// samples), while a circle of art measured a little too large (a printed
// badge and its dark ring, rings of painted art: 36 or fewer) has the
// same ground on both sides of the circle found along much of it.
func (d *Detector) rimStandsOut(f diskFit, img bgrImage) bool {
	return d.rimStandsOutAt(f, img, rimDepth)
}

// rimStandsOutAt is rimStandsOut with the rim read depth cm inside the
// outline.
func (d *Detector) rimStandsOutAt(f diskFit, img bgrImage, depth float64) bool {
	differs, n := d.rimDiffersAt(f, img, nil, depth)
	return n >= d.ringLeast() && rimStandsOutOf(differs, n)
}

// rimStandsOutOf reports whether differs of n samples of a rim differing
// from what lies just outside it make it stand out (rimStandsOut).
func rimStandsOutOf(differs, n int) bool { return 6*differs >= 5*n }

// rimDiffers counts the samples of disk f's rim read where what lies
// just outside it is one of the disks on (everywhere when on is nil),
// and how many of them differ from that.
func (d *Detector) rimDiffers(f diskFit, img bgrImage, on []circle) (differs, n int) {
	return d.rimDiffersAt(f, img, on, rimDepth)
}

// rimDiffersAt is rimDiffers with the rim read depth cm inside the
// outline.
func (d *Detector) rimDiffersAt(f diskFit, img bgrImage, on []circle, depth float64) (differs, n int) {
	rim, out := d.ringColoursOn(f, img, -depth, outsideDepth, on)
	for i := range rim {
		if rgbDist(rim[i], out[i]) >= rimContrast {
			differs++
		}
	}
	return differs, len(rim)
}

const (
	// outsideDepth is how far outside a disk's outline, cm, rimStandsOut
	// reads what the disk lies on.
	outsideDepth = 0.15
	// rimContrast is the least RGB distance (0..255 a channel) between a
	// rim and what lies next to it for hasRim and rimStandsOut to count
	// them different, and the most within which hasRim counts the rim
	// alike.
	rimContrast = 40
)

// coveredByCandidate reports whether q lies inside one of the candidates
// near, by more than margin.
func coveredByCandidate(q pt, cands []candidate, near []int, margin float64) bool {
	for _, j := range near {
		if cands[j].c.dist(q) < -margin {
			return true
		}
	}
	return false
}

// outermostStrong returns the index of the outermost peak at least half as
// strong as the strongest: inside it lie the rim's inner edge and the art,
// outside only the table (or a lower disk) and soft shadows.
func outermostStrong(peaks []peak) int {
	best := 0.0
	for _, p := range peaks {
		best = max(best, p.strength)
	}
	for i := len(peaks) - 1; i >= 0; i-- {
		if peaks[i].strength >= 0.5*best {
			return i
		}
	}
	return -1
}

// seenFromAbove reports whether the camera looks at circle c within about
// 27 degrees of straight down (always true without a calibration): its
// side wall then shows too little to move the outline.
func (d *Detector) seenFromAbove(c circle) bool {
	pl := d.plane
	if pl.cal == nil {
		return true
	}
	return c.C.sub(pl.eye).len() < 0.5*pl.eyeH
}

// rimSampleDepth returns how far inside an edge, in full-frame pixels, a
// disk's rim colour is read: about rimSample cm (inside the narrowest rim,
// past the blur that mixes it with what lies outside), at least 1.5 and
// at most 3 pixels.
func (d *Detector) rimSampleDepth() float64 {
	pl := d.plane
	if pl.cal == nil {
		return 2.5
	}
	return min(3, max(1.5, rimSample/(pl.pixel/pl.scale)))
}

// nearDepth is how far inside the edge found, full-frame pixels, a
// sample's near colour is read: within a black rim drawn as a thin line,
// which rimSampleDepth passes for the face inside it.
const nearDepth = 1.5

// rimSample is the depth, cm, at which a rim's colour is read: the
// narrowest rims' width.
const rimSample = 0.22

// wallShare is how far down a disk's wall, facing the camera, the outline
// is seen (see wallDrop).
const wallShare = 0.7

// modeBand is how far (a share of the probe's length, 10 pixels) from the
// outline's offset shared around a lone disk a probe's step may lie and
// still be the outline: the disk found by voting may be off centre by a
// pixel or two.
const modeBand = 0.2
