package vision

import (
	"cmp"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// How a calibrated token is fitted
//
// With a calibration every kind's size on the table is known, so a region
// of the kind's colour is not measured (its outline is broken by the
// chit's print, by shadow and by neighbours of the same colour) but
// matched: the kind's outline, drawn on the table at the region's place
// and mapped into the image, is moved and turned until as much as
// possible of its inside is of the kind's colour and as little as
// possible of a thin ring just outside it. A chit of that kind fills its
// own outline and stands out of the ring around it; a patch of the
// kind's colour that is part of something larger (a rim, the table, a
// painting) spills into the ring. The chit's print (a mark, a ring, a
// line) is enclosed by its colour and counts as it. Its outline must also
// lie on edges of the image that cross it: a patch of speckle of the right
// colour on a plain table has none. A chit on a table or a disk of its own
// colour joins it in the mask; there the regions are cut along the
// image's edges, and a fit is kept when it fills its outline and all of
// its outline is an edge.
// Where the edges at detection size miss part of a chit's outline (a
// faint chit, a grained ground, a chit against a rim), the outline is
// looked for again in the frame itself, as a step of colour larger than
// the ground's beyond it.
//
// A long chit of the table's own colour (a brown arrow on wood, a grey
// bolt on grey tiles) is in no region of its own: the grain's edges cut
// it into slivers. It is found by its outline instead: its long sides are
// straight edges of about its length, its ends cross the line between
// them its length apart, and nearly all of its outline is a step of
// colour in the frame, where the grain lines up with it only here and
// there (fitAlongSides).
//
// Regions are found once for all kinds, in the union of their colours
// (labelling regions costs more than the rest); each region of about a
// kind's area and mostly of its colour is fitted with that kind.

// tokenTemplate holds a kind's sample points on the table, in cm, along
// the token's long axis (X) and across it (Y).
type tokenTemplate struct {
	kind   TokenKind
	inside []pt
	ring   []pt
	side   []int // the side of the outline (round: the eighth) of each ring sample
	edge   []pt  // the outline itself
	edgeN  []pt  // and its normals
	// angles to try, radians; one for a round kind.
	angles []float64
}

// Template geometry, in cm: the inside is sampled this far within the
// outline (the edge blurs into the background), the ring this far out.
const (
	tokenInset = 0.12
	tokenGap   = 0.2
)

// newTokenTemplate samples kind k every step cm.
func newTokenTemplate(k TokenKind, step float64) tokenTemplate {
	t := tokenTemplate{kind: k}
	hl, hw := k.Length/2, k.Width/2
	ring := func(n int, at func(s float64) pt) {
		for i := range n {
			t.ring = append(t.ring, at(float64(i)/float64(n)))
		}
	}
	switch k.Shape {
	case "round":
		r := (hl + hw) / 2
		for y := -r; y <= r; y += 1.5 * step {
			for x := -r; x <= r; x += 1.5 * step {
				if math.Hypot(x, y) <= r-tokenInset {
					t.inside = append(t.inside, pt{x, y})
				}
			}
		}
		R := r + tokenGap
		ring(max(16, int(2*math.Pi*R/step)), func(s float64) pt {
			t.side = append(t.side, int(8*s))
			return pt{R * math.Cos(2*math.Pi*s), R * math.Sin(2*math.Pi*s)}
		})
		for i := range len(t.ring) {
			a := 2 * math.Pi * float64(i) / float64(len(t.ring))
			t.edge = append(t.edge, pt{r * math.Cos(a), r * math.Sin(a)})
			t.edgeN = append(t.edgeN, pt{math.Cos(a), math.Sin(a)})
		}
		t.angles = []float64{0}
	default:
		for y := -hw + tokenInset; y <= hw-tokenInset+1e-9; y += 1.5 * step {
			for x := -hl + tokenInset; x <= hl-tokenInset+1e-9; x += 1.5 * step {
				t.inside = append(t.inside, pt{x, y})
			}
		}
		L, W := hl+tokenGap, hw+tokenGap
		per := 4 * (L + W)
		ring(max(16, int(per/step)), func(s float64) pt {
			d := s * per
			switch {
			case d < 2*L:
				t.side = append(t.side, 0)
				return pt{-L + d, -W}
			case d < 2*L+2*W:
				t.side = append(t.side, 1)
				return pt{L, -W + d - 2*L}
			case d < 4*L+2*W:
				t.side = append(t.side, 2)
				return pt{L - (d - 2*L - 2*W), W}
			default:
				t.side = append(t.side, 3)
				return pt{-L, W - (d - 4*L - 2*W)}
			}
		})
		for i, q := range t.ring {
			t.edge = append(t.edge, pt{q.X * hl / L, q.Y * hw / W})
			t.edgeN = append(t.edgeN, [4]pt{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}[t.side[i]])
		}
		span := math.Pi // a long chit turned half a turn is itself
		if k.Shape == "square" || k.Length == k.Width {
			span = math.Pi / 2
		}
		for a := 0.0; a < span-1e-9; a += math.Pi / 24 {
			t.angles = append(t.angles, a)
		}
	}
	return t
}

// tokenFit is a kind's outline placed on the image.
type tokenFit struct {
	kind     int // index in the catalogue
	centre   pt  // detection pixels
	angle    float64
	in, out  float64 // the fraction of inside and ring samples of the kind's colour
	sideOut  float64 // the largest such fraction of one side of the ring
	edge     float64 // the fraction of the outline on an edge of the image
	score    float64
	fine     float64 // the share of the inside of the kind's colour in the frame itself
	jx, jy   pt      // the local map: detection pixels a cm along the table's X and Y
	tableC   pt      // the centre on the table, at height 0
	u, v     float64
	axisWork pt
	// cover, when not nil, hides the samples under a disk lying on the
	// chit (see tokencover.go); seen is the share of its outline not hidden.
	cover *coverView
	seen  float64
}

// fitTemplate places template t near detection pixel (cx, cy) on mask
// (one byte a pixel, non-zero for the kind's colour), searching shifts of
// up to reach pixels and the template's angles (of a long kind, only those
// near prior, the long axis of the region in detection pixels, when it is
// not zero). It reports false where the table cannot be mapped, where the
// outline at (cx, cy) lies on too few edges to try, or where the coarse
// fit is too far from a token's to refine. With a cover (not nil) the
// samples it hides or shades are left out of every share, and a placement
// must show at least half of its inside (the shaded part counted as shown).
func (d *Detector) fitTemplate(t *tokenTemplate, mask, edges []byte, cx, cy, reach float64, prior pt, cov *coverView) (tokenFit, bool) {
	pl := d.plane
	o, jx, jy, ok := d.localMap(cx, cy)
	if !ok {
		return tokenFit{}, false
	}
	// The mask around the place, its holes filled: the print on a chit
	// (a ring, a mark, a line) is not of the chit's colour but is
	// enclosed by it.
	ext := 0.0
	for _, q := range t.ring {
		ext = max(ext, q.len())
	}
	// The longest a table vector of that length can be in the image: the
	// local map's largest singular value.
	tr, dt := jx.X*jx.X+jx.Y*jx.Y+jy.X*jy.X+jy.Y*jy.Y, jx.X*jy.Y-jx.Y*jy.X
	ext = ext*math.Sqrt((tr+math.Sqrt(max(0, tr*tr-4*dt*dt)))/2) + reach + 2
	x0, y0 := max(0, int(o.X-ext)), max(0, int(o.Y-ext))
	x1, y1 := min(pl.w, int(o.X+ext)+2), min(pl.h, int(o.Y+ext)+2)
	if x1-x0 < 3 || y1-y0 < 3 {
		return tokenFit{}, false
	}
	w, h := x1-x0, y1-y0
	near := func(float64) bool { return true }
	if prior.len() > 0 && t.kind.Shape == "long" {
		// The region's axis on the table: the inverse of the local map.
		det := jx.X*jy.Y - jx.Y*jy.X
		pa := math.Atan2((jx.X*prior.Y-jx.Y*prior.X)/det, (jy.Y*prior.X-jy.X*prior.Y)/det)
		near = func(a float64) bool {
			d := math.Mod(math.Abs(a-pa), math.Pi)
			return min(d, math.Pi-d) <= tokenAxisSlack
		}
	}
	step := 1
	if len(t.angles) > 1 {
		step = 2
	}
	// Most regions are not chits, and show it before any fitting: the
	// outline, placed on the region's centroid at the angles to try, lies
	// on few edges.
	gate := 0.0
	for i := 0; i < len(t.angles) && gate < tokenGateEdge; i += step {
		if near(t.angles[i]) {
			gate = max(gate, d.outlineOnEdges(t, o, t.angles[i], jx, jy, edges, tokenGateEdge, cov))
		}
	}
	if gate < tokenGateEdge {
		return tokenFit{}, false
	}
	mask = d.filledPatch(mask, x0, y0, w, h)
	// The pixels of the patch the cover hides (1) or shades (2): none
	// without one.
	var hid []byte
	if cov != nil {
		d.hidPatch = slices.Grow(d.hidPatch[:0], w*h)[:w*h]
		hid = d.hidPatch
		for y := range h {
			src, dst := cov.level[(y0+y)*cov.w+x0:(y0+y)*cov.w+x0+w], hid[y*w:(y+1)*w]
			for x, l := range src {
				switch {
				case l > cov.above || cov.below && l < cov.above:
					dst[x] = 1
				case cov.shades(x0+x, y0+y):
					dst[x] = 2
				default:
					dst[x] = 0
				}
			}
		}
	}
	o = o.sub(pt{float64(x0), float64(y0)})
	best := tokenFit{score: math.Inf(-1)}
	r := int(math.Ceil(reach))
	// The samples' indices, in the detector's scratch (a fit runs for
	// every candidate region of every frame).
	d.sampleIdx = slices.Grow(d.sampleIdx[:0], len(t.inside)+len(t.ring))[:len(t.inside)+len(t.ring)]
	inIdx, ringIdx := d.sampleIdx[:len(t.inside)], d.sampleIdx[len(t.inside):]
	count := func(idx []int, off, stride int) (hit, n, shaded int) {
		for k := 0; k < len(idx); k += stride {
			j := idx[k] + off
			if hid != nil && hid[j] != 0 {
				if hid[j] == 2 {
					shaded++
				}
				continue
			}
			if mask[j] != 0 {
				hit++
			}
			n++
		}
		return hit, n, shaded
	}
	// try places the template at angle a with its centre at c plus whole
	// pixel shifts of up to r each way, every stride pixels, keeping the
	// best placement. A coarse try counts every other inside sample.
	try := func(a float64, c pt, r, stride int, coarse bool) {
		inStride := 1
		if coarse {
			inStride = 2
		}
		ax := pt{math.Cos(a), math.Sin(a)}
		// The samples as indices into the patch, and the box around them.
		minX, minY, maxX, maxY := w, h, -1, -1
		place := func(src []pt, dst []int) {
			for i, q := range src {
				p := c.add(templateOffset(jx, jy, ax, q))
				x, y := int(math.Round(p.X)), int(math.Round(p.Y))
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
				dst[i] = y*w + x
			}
		}
		place(t.inside, inIdx)
		place(t.ring, ringIdx)
		for dy := -r; dy <= r; dy += stride {
			for dx := -r; dx <= r; dx += stride {
				if minX+dx < 0 || minY+dy < 0 || maxX+dx >= w || maxY+dy >= h {
					continue
				}
				off := dy*w + dx
				hit, n, shaded := count(inIdx, off, inStride)
				if n == 0 || 2*(n+shaded) < (len(inIdx)+inStride-1)/inStride { // mostly hidden
					continue
				}
				in := float64(hit) / float64(n)
				if in <= best.score { // the ring can only lower it
					continue
				}
				hit, n, _ = count(ringIdx, off, 1)
				out := 0.0
				if n > 0 {
					out = float64(hit) / float64(n)
				}
				if s := in - out; s > best.score {
					best = tokenFit{centre: pt{c.X + float64(dx), c.Y + float64(dy)}, angle: a, in: in, out: out, score: s}
					var hit, all [8]int
					for i, j := range ringIdx {
						if hid != nil && hid[j+off] != 0 {
							continue
						}
						all[t.side[i]]++
						if mask[j+off] != 0 {
							hit[t.side[i]]++
						}
					}
					for i := range all {
						if all[i] > 0 {
							best.sideOut = max(best.sideOut, float64(hit[i])/float64(all[i]))
						}
					}
				}
			}
		}
	}
	// Coarse: every other angle, every other pixel; fine: the angles next
	// to the best and half-pixel shifts around it. A region drawn out
	// along an axis is tried near it only.
	for i := 0; i < len(t.angles); i += step {
		if near(t.angles[i]) {
			try(t.angles[i], o, r, 2, true)
		}
	}
	if math.IsInf(best.score, -1) {
		return tokenFit{}, false
	}
	// Most places are not chits: the coarse fit tells, before the fine
	// one, when its inside is far from full or its outline far from the
	// image's edges.
	if best.in < tokenMinInside-tokenCoarseSlack ||
		d.outlineOnEdges(t, best.centre.add(pt{float64(x0), float64(y0)}), best.angle, jx, jy, edges, tokenMinEdge-2*tokenCoarseSlack, cov) < tokenMinEdge-2*tokenCoarseSlack {
		return tokenFit{}, false
	}
	c0, a0 := best.centre, best.angle
	// The fine fit counts every inside sample: its scores start afresh.
	best = tokenFit{score: math.Inf(-1)}
	da := 0.0
	if len(t.angles) > 1 {
		da = t.angles[1] - t.angles[0]
	}
	for _, a := range []float64{a0 - da, a0, a0 + da} {
		for sub := range 4 {
			try(a, c0.add(pt{0.5 * float64(sub&1), 0.5 * float64(sub>>1)}), 1, 1, false)
		}
		if da == 0 {
			break
		}
	}
	if math.IsInf(best.score, -1) {
		return tokenFit{}, false
	}
	best.centre = best.centre.add(pt{float64(x0), float64(y0)})
	best.edge = d.outlineOnEdges(t, best.centre, best.angle, jx, jy, edges, -1, cov)
	best.jx, best.jy = jx, jy
	best.cover, best.seen = cov, 1
	if cov != nil {
		best.seen = float64(d.outlineSeen(t, best.centre, best.angle, jx, jy, cov)) / float64(len(t.edge))
	}
	return best, d.onTable(&best)
}

// onTable sets fit f's place in the frame and on the table, and its axis
// there, from its centre and angle; false where the table cannot be
// mapped.
func (d *Detector) onTable(f *tokenFit) bool {
	f.u, f.v = d.plane.full(f.centre.X, f.centre.Y)
	tc, ok := d.plane.toWork(f.u, f.v, 0)
	f.tableC = tc
	f.axisWork = pt{math.Cos(f.angle), math.Sin(f.angle)}
	return ok
}

// localMap is the table's map into the image at detection pixel (cx, cy):
// the pixel o it maps the table point under (cx, cy) to (close to it),
// and the detection pixels a cm along the table's X and Y there. It
// reports false where the table cannot be mapped.
func (d *Detector) localMap(cx, cy float64) (o, jx, jy pt, ok bool) {
	pl := d.plane
	u, v := pl.full(cx, cy)
	c, ok := pl.toWork(u, v, 0)
	if !ok {
		return pt{}, pt{}, pt{}, false
	}
	const e = 0.5
	o, ok0 := pl.detection(c, 0)
	ex, ok1 := pl.detection(c.add(pt{e, 0}), 0)
	ey, ok2 := pl.detection(c.add(pt{0, e}), 0)
	if !ok0 || !ok1 || !ok2 {
		return pt{}, pt{}, pt{}, false
	}
	return o, ex.sub(o).scale(1 / e), ey.sub(o).scale(1 / e), true
}

// fitOutline places template t near detection pixel (cx, cy) where the
// kind's colour is the ground's (a brown arrow on a wooden table, a grey
// bolt on grey tiles), or that of what the chit lies on: there the colour
// cannot place a chit, the image's edges can. It searches shifts of up to
// reach pixels, and the angles within tokenSideSlack of axis (radians, on
// the table), for the place
// where most of the outline lies on edges (at least tokenGateEdge). The
// fit's edge is that share; its in, the share of its inside of the
// kind's colour (mask).
func (d *Detector) fitOutline(t *tokenTemplate, mask, edges []byte, cx, cy, reach, axis float64) (tokenFit, bool) {
	pl := d.plane
	o, jx, jy, ok := d.localMap(cx, cy)
	if !ok {
		return tokenFit{}, false
	}
	near := func(a float64) bool {
		d := math.Mod(math.Abs(a-axis), math.Pi)
		return min(d, math.Pi-d) <= tokenSideSlack
	}
	best := tokenFit{edge: tokenGateEdge}
	found := false
	// try keeps the placement at angle a and centre c if more of its
	// outline lies on edges than of the best's so far.
	try := func(a float64, c pt) {
		if d.outlineOnEdges(t, c, a, jx, jy, edges, best.edge, nil) < best.edge {
			return
		}
		if e := d.outlineOnEdges(t, c, a, jx, jy, edges, -1, nil); e > best.edge || !found {
			best = tokenFit{centre: c, angle: a, edge: e}
			found = true
		}
	}
	r := int(math.Ceil(reach))
	for _, a := range t.angles {
		if !near(a) {
			continue
		}
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				try(a, o.add(pt{float64(dx), float64(dy)}))
			}
		}
	}
	if !found {
		return tokenFit{}, false
	}
	// The share of the inside of the kind's colour.
	best.jx, best.jy = jx, jy
	off := best.offsets()
	hit, n := 0, 0
	for _, q := range t.inside {
		p := best.centre.add(off(q))
		x, y := int(math.Round(p.X)), int(math.Round(p.Y))
		if x < 0 || y < 0 || x >= pl.w || y >= pl.h {
			continue
		}
		n++
		if mask[y*pl.w+x] != 0 {
			hit++
		}
	}
	if n > 0 {
		best.in = float64(hit) / float64(n)
	}
	return best, d.onTable(&best)
}

// offsets maps a point of fit f's template (cm along the chit's long axis
// and across it) to detection pixels from its centre, turned by its angle.
func (f tokenFit) offsets() func(q pt) pt {
	ax := pt{math.Cos(f.angle), math.Sin(f.angle)}
	return func(q pt) pt { return templateOffset(f.jx, f.jy, ax, q) }
}

// templateOffset maps point q of a template (cm along the chit's long
// axis and across it), the axis turned to unit vector ax on the table, to
// detection pixels from the template's centre by the local map (jx, jy:
// detection pixels a cm along the table's X and Y).
func templateOffset(jx, jy, ax, q pt) pt {
	r := pt{ax.X*q.X - ax.Y*q.Y, ax.Y*q.X + ax.X*q.Y}
	return jx.scale(r.X).add(jy.scale(r.Y))
}

// tokenSideSlack is how far (radians) from a straight side's direction on
// the table a long kind is tried along it.
const tokenSideSlack = math.Pi / 24

// frameColourShare is the share of fit f's inside that is of its kind's
// colour in the frame itself, at full resolution: a chit's colour fills
// it there too (less its print), where a printed pattern (dark text on a
// light label) that blurs into the kind's colour at detection size falls
// apart into colours of its own.
func (d *Detector) frameColourShare(t *tokenTemplate, f tokenFit, colour bgrImage) float64 {
	bit := uint64(1) << f.kind
	off := f.offsets()
	s := d.plane.scale
	light := d.chitLight(t, f)
	hit, n := 0, 0
	for _, q := range t.inside {
		p := f.centre.add(off(q))
		if f.cover.shades(int(math.Round(p.X)), int(math.Round(p.Y))) {
			continue
		}
		for _, o := range [2]float64{0, 0.5} { // two frame pixels a sample
			if is, ok := d.frameOfKind(colour, (p.X+o+0.5)*s-0.5, (p.Y+o+0.5)*s-0.5, light, bit); ok {
				n++
				if is {
					hit++
				}
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hit) / float64(n)
}

// chitLight is what brightens the frame's colours at fit f to the
// light the kinds' colours are seen under, as the masks are (1 for a
// grey, as under the typical light: see colourTable.level).
func (d *Detector) chitLight(t *tokenTemplate, f tokenFit) float64 {
	if colourless(t.kind.Colour) {
		return 1
	}
	s := d.plane.scale
	return 1 / d.light.at((f.centre.X+0.5)*s, (f.centre.Y+0.5)*s)
}

// frameOfKind reports whether the frame's pixel at (x, y), full-frame
// pixels, brightened by light, is of a kind in bits; ok is false off the
// frame.
func (d *Detector) frameOfKind(colour bgrImage, x, y, light float64, bits uint64) (is, ok bool) {
	r, g, b, ok := colour.at(x, y)
	if !ok {
		return false, false
	}
	l, la, lb := rgbToLab([3]float64{min(255, r*light), min(255, g*light), min(255, b*light)})
	return d.colours.kindsOf(l, la, lb)&bits != 0, true
}

// plainCoreShare is the share of the middle of fit f's face (within
// plainCore of its half-length and half-width of its centre), sampled at
// every frame pixel, that is of its kind's colour. A plain chit is of its
// colour there above all (its print-free face, furthest from its blurred
// outline); a printed badge of the colour carries its mark in the middle
// (a disk's stat circle: a light bar across a third of it), which the
// share over the whole face, where the mark is a sixth or less, lets
// through.
func (d *Detector) plainCoreShare(t *tokenTemplate, f tokenFit, colour bgrImage) float64 {
	bit := uint64(1) << f.kind
	off := f.offsets()
	s := d.plane.scale
	light := d.chitLight(t, f)
	hl, hw := plainCore*t.kind.Length/2, plainCore*t.kind.Width/2
	// About a frame pixel on the table, cm: a detection pixel's over the
	// scale.
	step := d.plane.pixel / s
	if !(step > 0) || !(hl > 0) || !(hw > 0) {
		return 1 // no scale or no size: nothing to judge by
	}
	round := t.kind.Shape == "round"
	hit, n := 0, 0
	for y := -hw; y <= hw+1e-9; y += step {
		for x := -hl; x <= hl+1e-9; x += step {
			if round && (x*x/(hl*hl)+y*y/(hw*hw)) > 1 {
				continue
			}
			p := f.centre.add(off(pt{x, y}))
			if f.cover.shades(int(math.Round(p.X)), int(math.Round(p.Y))) {
				continue
			}
			if is, ok := d.frameOfKind(colour, (p.X+0.5)*s-0.5, (p.Y+0.5)*s-0.5, light, bit); ok {
				n++
				if is {
					hit++
				}
			}
		}
	}
	if n == 0 {
		return 1 // nothing seen: nothing against it
	}
	return float64(hit) / float64(n)
}

// frameOutlineShare is the share of fit f's outline that is a step of
// colour in the frame itself, at full resolution: across the outline, the
// colour changes more within frameStepReach pixels of it (inside it, no
// deeper than frameStepInShare of the chit's extent) than just outside it
// (where the ground's grain or print is, and the chit's shadow, whose end
// is not counted), and by at least frameStepLeast. It
// stops counting as soon as the share is sure to be below least, and
// returns a bound below least then.
func (d *Detector) frameOutlineShare(t *tokenTemplate, f tokenFit, colour bgrImage, least float64) float64 {
	toDet := f.offsets()
	// The colour across the outline, a frame pixel apart, from
	// frameStepReach+1 pixels inside it to frameStepFar+1 outside.
	const first = -frameStepReach - 1
	var prof [frameStepFar - first + 2][3]float64
	hit, all := 0, len(t.edge)
	for i, q := range t.edge {
		// At best every sample left is on the frame and a step.
		if most := float64(hit+len(t.edge)-i) / float64(all); most < least {
			return most
		}
		cx, cy, nd, ndLen := d.outlineAt(t, f.centre, toDet, i)
		// How far inside the outline its step may lie: frameStepReach
		// pixels, or a quarter of the chit's extent across it there, if
		// less (a chit a few pixels across would otherwise take a line
		// under its middle, a tile's joint, for both its sides).
		reachIn := min(frameStepReach, frameStepInShare*2*math.Abs(q.dot(t.edgeN[i]))*ndLen*d.plane.scale)
		ok := true
		for k := range prof {
			o := float64(first + k)
			if prof[k], ok = colour.bilinear(cx+o*nd.X, cy+o*nd.Y); !ok {
				break
			}
		}
		if !ok {
			all-- // off the frame: not counted
			continue
		}
		near, far := 0.0, 0.0
		// Beyond a raised chit's outline lies its shadow: the first step
		// out there where the colour brightens outward is where the
		// shadow ends, not the ground's grain or print, and does not
		// count against the outline's step.
		shadow := 0 // 0: its end not met yet, 1: at it, 2: past it
		for k := 1; k < len(prof)-1; k++ {
			o := first + k
			st := rgbDist(prof[k-1], prof[k+1])
			if o <= frameStepReach {
				if float64(o) >= -reachIn {
					near = max(near, st)
				}
			} else if o > frameStepReach+1 {
				if shadow < 2 && st >= frameStepLeast && luma(prof[k+1]) > luma(prof[k-1]) {
					shadow = 1
					continue
				}
				if shadow == 1 {
					shadow = 2
				}
				far = max(far, st)
			}
		}
		if near >= frameStepLeast && near >= frameStepOver*far {
			hit++
		}
	}
	if all <= 0 {
		return 0
	}
	return float64(hit) / float64(all)
}

// outlineAt returns template t's outline point i, fitted at centre with
// toDet (tokenFit.offsets), in full-frame pixels, with its outward unit
// normal there and the normal's length in detection pixels (0: no
// direction).
func (d *Detector) outlineAt(t *tokenTemplate, centre pt, toDet func(pt) pt, i int) (cx, cy float64, n pt, nLen float64) {
	p := centre.add(toDet(t.edge[i]))
	n = toDet(t.edgeN[i])
	nLen = n.len()
	n = n.scale(1 / max(nLen, 1e-9))
	cx, cy = d.plane.full(p.X, p.Y)
	return cx, cy, n, nLen
}

// castsShadow reports whether fit f shows a chit's contact shadow: the
// light just outside its outline (shadeNear) is, by the median over the
// outline's normals, less than shadowedShare of the light a little
// further out (shadeFar). A printed badge lies flat in its disk's face
// and casts none; a chit does, though bright chits on dark ground blur
// outwards and hide it, so it is asked only of what its colour alone
// leaves in doubt. Over the 240 rendered scenes the test drops 12 of 95
// token phantoms for 1 of 1,352 true chits with Go's decoder, 13 of 103
// for 1 of 1,323 with OpenCV's; judged also where the shadow is narrower
// than shadeResolved, it dropped 3 and 4 more for 2 and 7 more true
// chits.
func (d *Detector) castsShadow(t *tokenTemplate, f tokenFit, colour bgrImage) bool {
	pl := d.plane
	cmPerPx := pl.pixel / pl.scale
	// Without a scale, or where the shadow is too narrow to resolve (a
	// far table, a small frame), there is nothing to judge by.
	if !(cmPerPx > 0) || shadeNear[1]/cmPerPx < shadeResolved {
		return true
	}
	// The bands are kept out of the outline's blur.
	n0 := max(shadeNear[0]/cmPerPx, shadeBlur)
	n1 := max(shadeNear[1]/cmPerPx, n0+shadeBlur)
	f0 := max(shadeFar[0]/cmPerPx, n1+shadeBlur)
	f1 := max(shadeFar[1]/cmPerPx, f0+shadeBlur)
	step := max(0.5, (n1-n0)/4)
	toDet := f.offsets()
	// Asked of few fits a frame: no scratch kept.
	ratios := make([]float64, 0, len(t.edge))
	mean := func(cx, cy, nx, ny, o0, o1 float64) (float64, bool) {
		sum, k := 0.0, 0
		for o := o0; o <= o1+1e-9; o += step {
			if c, ok := colour.bilinear(cx+o*nx, cy+o*ny); ok {
				sum += luma(c)
				k++
			}
		}
		return sum / float64(max(k, 1)), k > 0
	}
	for i := range t.edge {
		cx, cy, nd, l := d.outlineAt(t, f.centre, toDet, i)
		if l == 0 {
			continue
		}
		near, ok0 := mean(cx, cy, nd.X, nd.Y, n0, n1)
		far, ok1 := mean(cx, cy, nd.X, nd.Y, f0, f1)
		if ok0 && ok1 && far > 0 {
			ratios = append(ratios, near/far)
		}
	}
	if len(ratios) == 0 {
		return true // nothing to judge by: no reason to drop it
	}
	return nth(ratios, len(ratios)/2) < shadowedShare
}

// Contact shadow test (castsShadow): the bands outside a chit's outline,
// cm, and the share of the far band's light below which the near band is
// shadowed; and the share of a plain chit's inside of its colour below
// which it must show its shadow (rendered gold: 15 of 21 phantoms,
// printed badges, lie below it at 0.98-1.16 of the light; 5 of 130 true
// chits, blurred on far tables, at 0.95-0.98).
var (
	shadeNear = [2]float64{0.07, 0.2}
	shadeFar  = [2]float64{0.34, 0.54}
)

const (
	shadeBlur     = 1.5 // full-frame pixels
	shadeResolved = 2.5 // full-frame pixels the near band must reach
	shadowedShare = 0.97
	plainFine     = 0.7
)

// The middle of a plain chit's face (plainCoreShare): the share of its
// half-length and half-width it spans, and the least share of it that
// must be of the chit's colour. Over the 240 rendered scenes, 7 of 21
// gold phantoms (a disk's stat circles: a gold disc with a light bar
// across its middle) lie at 0.16-0.49, the true gold chits at 0.515 and
// above (0.515-0.67 where blur, noise or a chit lying on them eat into
// the middle).
const (
	plainCore      = 0.5
	plainCoreLeast = 0.5
)

// luma is the brightness of an r, g, b colour (Rec. 601 weights).
func luma(c [3]float64) float64 { return 0.299*c[0] + 0.587*c[1] + 0.114*c[2] }

// The steps of a chit's outline in the frame: looked for within
// frameStepReach pixels of the fitted outline; compared with the largest
// step out to frameStepFar pixels beyond it, which it must pass
// frameStepOver times; and at least frameStepLeast (the colour distance
// between pixels two apart, in 0..255 a channel).
const (
	frameStepReach = 2
	frameStepFar   = 7
	frameStepOver  = 1.5
	frameStepLeast = 12
	// frameStepInShare is the share of a chit's extent across its outline
	// (its width across a long side, its diameter) within which, inside
	// the outline, the outline's step may lie, where that is less than
	// frameStepReach pixels. At 1920x1080 it changes nothing on the 240
	// rendered tables; at 1280x720 it drops 65 of 124 phantom chits (bolts
	// along tile joints, 8 pixels wide or less) on the easy and medium
	// tiers, 10 of 100 on the hard one, and loses 1 chit.
	frameStepInShare = 0.25
)

// outlineOnEdges is the share of template t's outline, placed at centre
// (detection pixels) and turned by angle, that lies within a pixel of an
// edge of the image whose gradient crosses it; jx and jy are the local
// map (detection pixels a cm along the table's X and Y). With a threshold
// least of zero or more it stops counting as soon as the share is sure to
// be at least that or below it, and returns a bound on the same side of
// least as the share. With a cover (not nil) only the samples it neither
// hides nor shades count (none: 0).
func (d *Detector) outlineOnEdges(t *tokenTemplate, centre pt, angle float64, jx, jy pt, edges []byte, least float64, cov *coverView) float64 {
	ax := pt{math.Cos(angle), math.Sin(angle)}
	hit, n := 0, len(t.edge)
	// With a cover, the samples' pixels are placed once, the shaded ones
	// marked (shadedSample), and counted before: the early exit needs
	// how many are seen.
	var at []image.Point
	if cov != nil {
		d.outlinePx = slices.Grow(d.outlinePx[:0], len(t.edge))[:len(t.edge)]
		at, n = d.outlinePx, 0
		for i, q := range t.edge {
			p := centre.add(templateOffset(jx, jy, ax, q))
			at[i] = image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
			if cov.shades(at[i].X, at[i].Y) {
				at[i] = shadedSample
			} else {
				n++
			}
		}
		if n == 0 {
			return 0
		}
	}
	done := 0 // the samples counted so far
	for i, q := range t.edge {
		var x, y int
		if at != nil {
			if at[i] == shadedSample {
				continue
			}
			x, y = at[i].X, at[i].Y
		} else {
			p := centre.add(templateOffset(jx, jy, ax, q))
			x, y = int(math.Round(p.X)), int(math.Round(p.Y))
		}
		if least >= 0 {
			// Decided: the share already reaches the threshold, or
			// cannot with the samples left (compared as the caller
			// compares the share).
			if sure := float64(hit) / float64(n); sure >= least {
				return sure
			}
			if most := float64(hit+n-done) / float64(n); most < least {
				return most
			}
		}
		done++
		// The normal in the image: across the mapped outline.
		if d.edgeAcross(x, y, templateOffset(jx, jy, ax, t.edgeN[i]), edges) {
			hit++
		}
	}
	return float64(hit) / float64(n)
}

// edgeAcross reports whether an edge of the image lies within a pixel of
// detection pixel (x, y) whose gradient runs within 37 degrees of nd
// (either way): an outline across nd lies on it there.
func (d *Detector) edgeAcross(x, y int, nd pt, edges []byte) bool {
	w, h := d.plane.w, d.plane.h
	// Within 37 degrees of nd: dot^2 >= 0.64 |g|^2 |nd|^2, without a root.
	n2 := nd.X*nd.X + nd.Y*nd.Y
	if n2 == 0 {
		return false
	}
	for yy := max(0, y-1); yy <= min(h-1, y+1); yy++ {
		for xx := max(0, x-1); xx <= min(w-1, x+1); xx++ {
			j := yy*w + xx
			if edges[j] == 0 {
				continue
			}
			gx, gy := float64(d.gradX[j]), float64(d.gradY[j])
			if g2, dot := gx*gx+gy*gy, gx*nd.X+gy*nd.Y; g2 > 0 && dot*dot >= 0.64*g2*n2 {
				return true
			}
		}
	}
	return false
}

// shadedSample marks, among an outline's sample pixels, one a cover
// hides or shades (outlineOnEdges).
var shadedSample = image.Pt(math.MinInt32, math.MinInt32)

// outlineSeen is how many samples of template t's outline, placed at
// centre (detection pixels) and turned by angle, cover does not hide.
func (d *Detector) outlineSeen(t *tokenTemplate, centre pt, angle float64, jx, jy pt, cov *coverView) int {
	ax := pt{math.Cos(angle), math.Sin(angle)}
	seen := 0
	for _, q := range t.edge {
		p := centre.add(templateOffset(jx, jy, ax, q))
		if !cov.hides(int(math.Round(p.X)), int(math.Round(p.Y))) {
			seen++
		}
	}
	return seen
}

// tokenAxisSlack is how far (radians) from a region's long axis a long
// kind is tried, when the region is drawn out along one.
const tokenAxisSlack = math.Pi / 8

// tokenMinFrameGrey is the least share of a grey (colourless) chit's
// inside that must be of its colour in the frame itself, at full
// resolution. Grey chits fill about two thirds or more even in shadow;
// labels of dark text on a light ground, grey at detection size, a third
// to a half. tokenMinFrame is the same for a chit of a colour: a patch of
// painted art that blurs into the colour at detection size (fine
// hatching, a mottled ground) is of it for less than half.
const (
	tokenMinFrameGrey = 0.55
	tokenMinFrame     = 0.5
)

// tokenSplitSpan is how many diagonals of a kind's chit a region of the
// union of all kinds' colours may span and still be labelled again in
// that kind's colour alone.
const tokenSplitSpan = 2

// tokenGateEdge is the least share of a kind's outline, placed on a
// region's centroid, that must lie on edges for the region to be fitted
// (the coarse fit must reach 0.55 at its best place).
const tokenGateEdge = 0.5

// tokenCoarseSlack is how far below the thresholds a coarse fit (every
// other angle and pixel) may be and still be refined.
const tokenCoarseSlack = 0.15

// Thresholds of a fitted token: the share of its inside that must be of
// its colour, and the most of the ring around it that may be.
const (
	tokenMinInside = 0.6
	tokenMaxRing   = 0.2
	tokenMaxSide   = 0.5
	tokenMinEdge   = 0.85
	// A chit amid its own colour must fill its outline, and show all of
	// it.
	tokenFullInside = 0.9
	tokenFullEdge   = 0.95
)

// accepted reports whether a fit is a token: it fills its outline and
// either stands out of the ring around it or, where its surroundings are
// of its colour, shows its whole outline as an edge.
func (f tokenFit) accepted() bool {
	if f.in < tokenMinInside || f.edge < tokenMinEdge {
		return false
	}
	return f.out <= tokenMaxRing && f.sideOut <= tokenMaxSide ||
		f.in >= tokenFullInside && f.edge >= tokenFullEdge
}

// fitTokens finds the tokens of a calibrated frame: each region of a
// kind's colour, of about the kind's area or more, is a place where the
// kind's outline is fitted; the fits that fill their outline and stand out
// of their ring are tokens, the best of overlapping ones kept. Long chits
// of the ground's colour are looked for along straight edges of their
// length off the disks found (fitAlongSides), round chits at the circles
// of their size the disk search found (fitRoundSeeds), and chits a disk
// lies on in part by what is seen of them (tokencover.go).
func (d *Detector) fitTokens(colour bgrImage, disks []diskFit) []*tokenShape {
	pl := d.plane
	if d.tplPlane != pl {
		d.templates = d.templates[:0]
		for _, k := range d.opt.Tokens {
			d.templates = append(d.templates, newTokenTemplate(k, pl.pixel))
		}
		d.tplPlane = pl
	}
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	edgePix, err := d.edges.DataPtrUint8()
	if err != nil {
		return nil
	}
	// Each kind's pixels, print closed; their union, labelled once into
	// regions (labelling costs more than all the rest).
	d.kindMasks = matSet(d.kindMasks, len(d.opt.Tokens))
	raw, err := d.kindPixels()
	if err != nil {
		return nil
	}
	masks := make([][]byte, len(d.opt.Tokens))
	for ki := range d.opt.Tokens {
		gocv.MorphologyEx(raw[ki], &d.kindMasks[ki], gocv.MorphClose, kernel)
		if ki == 0 {
			d.kindMasks[ki].CopyTo(&d.tokMask)
		} else {
			gocv.BitwiseOr(d.tokMask, d.kindMasks[ki], &d.tokMask)
		}
		if masks[ki], err = d.kindMasks[ki].DataPtrUint8(); err != nil {
			return nil
		}
	}
	// The kinds whose colour is the ground's.
	ground := d.groundKinds()
	type kindRange struct{ minArea, maxArea, reach, diag float64 }
	ranges := make([]kindRange, len(d.opt.Tokens))
	for ki, k := range d.opt.Tokens {
		lo, hi := d.tokenAreaRange(k)
		ranges[ki] = kindRange{0.7 * lo, hi, 0.25*k.Width/pl.pixel + 1, 1.3*math.Hypot(k.Length, k.Width)/pl.pixel + 3}
	}
	var found []tokenFit
	under := underDisks{disks: disks}
	// The regions each kind was fitted to: labelled again (with the edges
	// cut, or without the ground's colour), most come out the same (box,
	// area, centroid and axis), and are fitted once.
	type fitted struct {
		kind  int
		place region // in detection pixels
		axis  pt     // its long axis (a long kind is fitted near it)
	}
	tried := map[fitted]bool{}
	// keepAs keeps fit f of kind ki when it is of its colour in the frame
	// itself: grey is what dark print on a light label blurs into at
	// detection size, and a colour what fine painted art may blur into.
	keepAs := func(ki int, f tokenFit) bool {
		f.kind = ki
		f.fine = d.frameColourShare(&d.templates[ki], f, colour)
		least := tokenMinFrame
		if colourless(d.opt.Tokens[ki].Colour) {
			least = tokenMinFrameGrey
		}
		if f.fine < least {
			return false
		}
		if t := &d.templates[ki]; d.opt.Tokens[ki].Plain {
			if f.fine < plainFine && !d.castsShadow(t, f, colour) || d.plainCoreShare(t, f, colour) < plainCoreLeast {
				return false
			}
		}
		found = append(found, f)
		return true
	}
	// fit fits kind ki to the region of the given label in labels (lw
	// pixels wide, its origin at detection pixel (ox, oy)), when the
	// region is of about the kind's size and mostly of its colour. It
	// returns the pixels of the kind's colour in the region's box, when
	// it counted them (else -1).
	fit := func(ki int, labels []int32, lw, ox, oy int, label int32, rg region, axis *pt, axisDone *bool) (own int) {
		r := ranges[ki]
		area := float64(rg.area)
		bw, bh := rg.x1-rg.x0, rg.y1-rg.y0
		// A region wider than the chit's diagonal each way is not one
		// chit (its pixels are counted in the ring).
		if area < r.minArea || area > r.maxArea || float64(bw) > r.diag || float64(bh) > r.diag {
			return -1
		}
		if own = setIn(masks[ki], pl.w, rg.x0+ox, rg.y0+oy, rg.x1+ox, rg.y1+oy); float64(own) < 0.5*area {
			return own
		}
		c := pt{rg.cx + float64(ox), rg.cy + float64(oy)}
		if !*axisDone {
			*axis, *axisDone = regionAxis(labels, lw, label, rg.x0, rg.y0, bw, bh, rg.cx, rg.cy), true
		}
		again := fitted{ki, region{area: rg.area, x0: rg.x0 + ox, y0: rg.y0 + oy, x1: rg.x1 + ox, y1: rg.y1 + oy, cx: c.X, cy: c.Y}, *axis}
		if tried[again] {
			return own
		}
		tried[again] = true
		f, ok := d.fitTemplate(&d.templates[ki], masks[ki], edgePix, c.X, c.Y, r.reach, *axis, nil)
		if ok && !f.accepted() {
			// The edges at detection size miss a chit's outline where it
			// is faint or the ground is grained: look again in the frame,
			// when all of the outline would make the fit a chit.
			g := f
			g.edge = 1
			if g.accepted() {
				least := tokenMinEdge
				if g.edge = tokenMinEdge; !g.accepted() {
					least = tokenFullEdge
				}
				f.edge = max(f.edge, d.frameOutlineShare(&d.templates[ki], f, colour, least))
			}
		}
		keep := func(f tokenFit) bool { return keepAs(ki, f) }
		if ok && f.accepted() && keep(f) {
			return own
		}
		// A disk lying on part of the chit (tokencover.go): the plain fit
		// may not even be tried (the outline at the seen part's middle
		// lies off its edges), or may fill too little of the outline, or
		// be too little of its colour where the disk hides it.
		if f, ok := under.fit(d, ki, masks[ki], edgePix, c, r.reach, *axis, seenPart{labels, lw, ox, oy, label, rg}); ok {
			keep(f)
		}
		return own
	}
	merged := false
	fitRegions := func(labels []int32, regions []region) {
		for i := 1; i < len(regions); i++ {
			rg := regions[i]
			axis, axisDone := pt{}, false
			for ki, r := range ranges {
				own := fit(ki, labels, pl.w, 0, 0, int32(i), rg, &axis, &axisDone)
				bw, bh := rg.x1-rg.x0, rg.y1-rg.y0
				if float64(rg.area) > r.maxArea {
					merged = true
				}
				// A chit beside a patch of another kind's colour (a
				// chit, a painting) joins it in the union: a region a
				// chit or two wide is labelled again in the kind's own
				// colour, and so is one within a chit's size that is
				// mostly of other colours (too mixed to be fitted: a
				// chit with a patch of art beside it, or with print of
				// another kind's colour).
				wide := float64(bw) > r.diag || float64(bh) > r.diag
				if float64(rg.area) >= r.minArea && float64(max(bw, bh)) <= tokenSplitSpan*r.diag {
					// Worth it only when the box holds a chit's worth of
					// the kind's colour.
					if own < 0 {
						own = setIn(masks[ki], pl.w, rg.x0, rg.y0, rg.x1, rg.y1)
					}
					if float64(own) < r.minArea || !wide && float64(own) >= 0.5*float64(rg.area) {
						continue
					}
					roi := d.kindMasks[ki].Region(image.Rect(rg.x0, rg.y0, rg.x1, rg.y1))
					subLabels, subs := d.subRegions.labelRegions(roi, 8)
					roi.Close()
					for j := 1; j < len(subs); j++ {
						subAxis, subDone := pt{}, false
						fit(ki, subLabels, bw, rg.x0, rg.y0, int32(j), subs[j], &subAxis, &subDone)
					}
				}
			}
		}
	}
	// Regions are labelled without their specks.
	gocv.MorphologyEx(d.tokMask, &d.cut, gocv.MorphOpen, kernel)
	fitRegions(d.regions.labelRegions(d.cut, 8))
	if merged {
		// A chit on a table or a disk of its own colour, or beside a chit
		// of another kind, joins it in the mask; its outline, an edge of
		// the image, still parts them.
		gocv.BitwiseNot(d.edges, &d.noEdges)
		gocv.BitwiseAnd(d.tokMask, d.noEdges, &d.cut)
		fitRegions(d.regions.labelRegions(d.cut, 4))
		// A table (or a large painting) of a kind's colour joins every
		// chit lying on it into one region, whose outline is too faint at
		// detection size to part a small chit from it: the other kinds'
		// colours are labelled again without it.
		if d.groundlessUnion(&d.noEdges, ground) {
			gocv.MorphologyEx(d.noEdges, &d.cut, gocv.MorphOpen, kernel)
			fitRegions(d.regions.labelRegions(d.cut, 8))
		}
	}
	// Chits on a disk running off it onto the ground of their colour.
	for ki := range d.opt.Tokens {
		if ground[ki] {
			r := ranges[ki]
			under.overhangs(d, ki, edgePix, r.minArea, r.maxArea, r.diag, r.reach, kernel, func(f tokenFit) bool { return keepAs(ki, f) })
		}
	}
	// Long chits of the ground's colour, along straight edges of their
	// length.
	var onDisk []circle
	for ki, k := range d.opt.Tokens {
		if !ground[ki] || k.Shape != "long" {
			continue
		}
		if onDisk == nil {
			onDisk = circlesOf(disks)
		}
		d.fitAlongSides(ki, d.sides, onDisk, masks[ki], edgePix, colour, &found)
	}
	// Round chits at the circles of their size.
	for ki, k := range d.opt.Tokens {
		if k.Shape == "round" {
			d.fitRoundSeeds(ki, masks[ki], edgePix, colour, &found)
		}
	}
	kept := keepApart(found, d.opt.Tokens)
	out := make([]*tokenShape, 0, len(kept))
	for _, f := range kept {
		k := d.opt.Tokens[f.kind]
		out = append(out, &tokenShape{centre: f.tableC, u: f.u, v: f.v, axis: f.axisWork, length: k.Length, width: k.Width,
			shape: k.Shape, kind: k.Kind, confidence: max(0, f.score)})
	}
	return out
}

// keepApart returns the fits of found, best score first, without those
// lying on a better one: two chits do not lie on the same spot, so of two
// fits whose centres are closer than tokenApart of their mean width (the
// same chit fitted twice, or a chit and a patch of print beside it taken
// for a chit of another kind across it) only the better is kept. found
// is sorted in place.
func keepApart(found []tokenFit, kinds []TokenKind) []tokenFit {
	slices.SortFunc(found, func(a, b tokenFit) int { return cmp.Compare(b.score, a.score) })
	var kept []tokenFit
	for _, f := range found {
		apart := true
		for _, g := range kept {
			if f.tableC.sub(g.tableC).len() < tokenApart*(kinds[f.kind].Width+kinds[g.kind].Width)/2 {
				apart = false
				break
			}
		}
		if apart {
			kept = append(kept, f)
		}
	}
	return kept
}

// tokenApart is the share of two chits' mean width their centres must lie
// apart for both to be kept (keepApart). Chits lying side by side, even
// touching, are a mean width apart or more. On the 240 rendered scenes
// (seeds 1-40 and 101-140), 0.9 rather than 0.6 of the wider one's width
// dropped 2 of 77 phantom chits (two art discs fitted as a fireball and a
// gold chit across each other; an arrow across a gold chit) and lost no
// chit; 1.0 lost one.
const tokenApart = 0.9

// groundShare is the share of the frame above which a kind's colour is
// taken for the ground tokens lie on, not for tokens.
const groundShare = 0.05

// groundKinds tells the kinds whose masks cover more than groundShare of
// the frame: their colour is taken for the ground tokens lie on.
func (d *Detector) groundKinds() []bool {
	most := groundShare * float64(d.plane.w*d.plane.h)
	ground := make([]bool, len(d.kindMasks))
	for ki := range d.kindMasks {
		ground[ki] = float64(gocv.CountNonZero(d.kindMasks[ki])) > most
	}
	return ground
}

// groundlessUnion sets dst to the union of the masks of the kinds that
// are not ground, and reports whether any kind is (and any is not):
// without one, the union is the token mask itself.
func (d *Detector) groundlessUnion(dst *gocv.Mat, ground []bool) bool {
	some, first := false, true
	for ki := range d.kindMasks {
		if ground[ki] {
			some = true
			continue
		}
		if first {
			d.kindMasks[ki].CopyTo(dst)
			first = false
		} else {
			gocv.BitwiseOr(*dst, d.kindMasks[ki], dst)
		}
	}
	return some && !first
}

// keepOnGround keeps fit f of kind ki, placed by the edges where its
// colour cannot place it (the ground's colour, or the colour of what it
// lies on), when it fills its outline with its colour, is of it in the
// frame itself, lies on edges of the image (as much as a coarse fit
// must), and at least least of its outline is a step of colour in the
// frame larger than the ground's grain beyond it (tokenGroundFrame along
// straight sides, tokenSeedFrame at circles).
// Its score is half that share: a chit seen only by its outline is less
// sure than one that stands out of the ground by its colour.
func (d *Detector) keepOnGround(ki int, f tokenFit, colour bgrImage, least float64, found *[]tokenFit) {
	k := d.opt.Tokens[ki]
	t := &d.templates[ki]
	if f.in < tokenFullInside || f.edge < tokenMinEdge-2*tokenCoarseSlack {
		return
	}
	// Most places show few steps of colour in the frame where the edges
	// put them.
	if d.frameOutlineShare(t, f, colour, least/2) < least/2 {
		return
	}
	// The edges at detection size place a chit to a pixel or so: it is
	// slid along its axis and across it, by half pixels, and turned by
	// half the template's step, to where most of its outline is a step
	// of colour in the frame.
	ax := pt{math.Cos(f.angle), math.Sin(f.angle)}
	along, across := f.jx.scale(ax.X).add(f.jy.scale(ax.Y)), f.jx.scale(-ax.Y).add(f.jy.scale(ax.X))
	along, across = along.scale(1/along.len()), across.scale(1/across.len())
	turns := []float64{0}
	if len(t.angles) > 1 {
		da := (t.angles[1] - t.angles[0]) / 2
		turns = append(turns, -da, da)
	}
	best, frame := f, -1.0
	for _, turn := range turns {
		for sa := -1.5; sa <= 1.5; sa += 0.5 {
			for sc := -0.5; sc <= 0.5; sc += 0.5 {
				g := f
				g.angle = f.angle + turn
				g.centre = f.centre.add(along.scale(sa)).add(across.scale(sc))
				if share := d.frameOutlineShare(t, g, colour, max(frame, 0)); share > frame {
					best, frame = g, share
				}
			}
		}
	}
	if frame < least {
		return
	}
	// Placed anew (its in and edge are those of its first place).
	f = best
	if !d.onTable(&f) {
		return
	}
	f.kind = ki
	leastFine := tokenMinFrame
	if colourless(k.Colour) {
		leastFine = tokenMinFrameGrey
	}
	if f.fine = d.frameColourShare(t, f, colour); f.fine < leastFine {
		return
	}
	f.score = frame / 2
	*found = append(*found, f)
}

// tokenGroundFrame is the least share of the outline of a chit of the
// ground's colour that must be a step of colour in the frame: the grain
// of a table lines up with a chit's outline here and there, never all
// round.
const tokenGroundFrame = 0.9

// fitAlongSides looks for chits of long kind ki, whose colour is the
// ground's, along the straight sides (of the frame's edge chains) of
// about the kind's length: a chit of the table's colour is cut by edges
// into slivers too thin to fit, but its long sides are straight edges of
// its length. It is fitted on either side of each, off the disks (whose
// colours are not the ground's: a chit on one is fitted by its colour);
// see keepOnGround.
func (d *Detector) fitAlongSides(ki int, sides []segment, disks []circle, mask, edges []byte, colour bgrImage, found *[]tokenFit) {
	k := d.opt.Tokens[ki]
	t := &d.templates[ki]
	for _, s := range sides {
		dir := s.b.sub(s.a)
		if l := dir.len(); l < tokenSideShortest*k.Length || l > tokenSideLongest*k.Length {
			continue
		}
		dir = dir.scale(1 / dir.len())
		n := pt{-dir.Y, dir.X}
		mid := s.a.add(s.b).scale(0.5)
		axis := math.Atan2(dir.Y, dir.X)
		for _, side := range [2]float64{-1, 1} {
			q := mid.add(n.scale(side * k.Width / 2))
			if insideAny(q, disks, 0) {
				continue // the ground is the table
			}
			c, ok := d.onMask(q, mask)
			if !ok {
				continue
			}
			_, jx, jy, ok := d.localMap(c.X, c.Y)
			if !ok {
				continue
			}
			// Most sides are grain, which runs on past a chit's length:
			// a chit's ends cross it, its length apart.
			along := jx.scale(dir.X).add(jy.scale(dir.Y))
			length := k.Length * along.len()
			along = along.scale(1 / along.len())
			across := jx.scale(-dir.Y).add(jy.scale(dir.X))
			if k.Width*across.len() < tokenGroundNarrowest {
				continue // too few pixels across to tell from a joint
			}
			shift, ok := d.chitEnds(c, along, across.scale(k.Width/4), length, edges)
			if !ok {
				continue
			}
			c = c.add(along.scale(shift))
			if gate := tokenMinEdge - 2*tokenCoarseSlack; d.outlineOnEdges(t, c, axis, jx, jy, edges, gate, nil) < gate {
				continue
			}
			if f, ok := d.fitOutline(t, mask, edges, c.X, c.Y, 1, axis); ok {
				d.keepOnGround(ki, f, colour, tokenGroundFrame, found)
			}
		}
	}
}

// chitEnds looks along the line through detection pixel c in direction
// along (a unit vector), and along the lines offset from it by off and
// -off, for two edges crossing it, whose gradient runs along it, length
// pixels apart (within tokenEndSlack) and centred within a third of the
// length of c. It returns how far along the line their middle lies from
// c, the nearest such, and whether there are any.
func (d *Detector) chitEnds(c, along, off pt, length float64, edges []byte) (float64, bool) {
	w, h := d.plane.w, d.plane.h
	// crosses reports whether an edge whose gradient runs along the line
	// lies at p (to the nearest pixel).
	crosses := func(p pt) bool {
		x, y := int(math.Round(p.X)), int(math.Round(p.Y))
		if x < 0 || y < 0 || x >= w || y >= h {
			return false
		}
		j := y*w + x
		if edges[j] == 0 {
			return false
		}
		gx, gy := float64(d.gradX[j]), float64(d.gradY[j])
		g2, dot := gx*gx+gy*gy, gx*along.X+gy*along.Y
		return g2 > 0 && dot*dot >= 0.64*g2
	}
	reach := length/2 + length/3
	best, found := 0.0, false
	for _, o := range [3]float64{0, 1, -1} {
		base := c.add(off.scale(o))
		d.crossings = d.crossings[:0]
		last := math.Inf(-1)
		for s := -reach; s <= reach; s += 0.5 {
			if !crosses(base.add(along.scale(s))) {
				continue
			}
			if s-last > 1 { // a new crossing
				d.crossings = append(d.crossings, s)
			}
			last = s
		}
		for i, a := range d.crossings {
			for _, b := range d.crossings[i+1:] {
				if math.Abs(b-a-length) > tokenEndSlack*length+1 {
					continue
				}
				if m := (a + b) / 2; math.Abs(m) <= length/3 && (!found || math.Abs(m) < math.Abs(best)) {
					best, found = m, true
				}
			}
		}
	}
	return best, found
}

// tokenGroundNarrowest is the fewest detection pixels across a long chit
// of the ground's colour must be to be looked for by its outline: at a
// few pixels, a tile's joint between a crossing and a gap is one.
const tokenGroundNarrowest = 4

// tokenEndSlack is how far (relative) the ends of a long chit may be from
// its length apart.
const tokenEndSlack = 0.12

// The lengths, relative to a long kind's, of the straight sides it is
// looked for along. Blur and a grained ground break a chit's side into
// straight runs of half its length or so; chitEnds finds its ends from a
// run that long (within a third of the length of its middle).
const (
	tokenSideShortest = 0.45
	tokenSideLongest  = 1.2
)

// setIn counts the set pixels of mask (w pixels a row) in the box from
// (x0, y0) to (x1, y1), excluded.
func setIn(mask []byte, w, x0, y0, x1, y1 int) int {
	n := 0
	for y := y0; y < y1; y++ {
		for _, v := range mask[y*w+x0 : y*w+x1] {
			if v != 0 {
				n++
			}
		}
	}
	return n
}

// regionAxis is the unit long axis of region label in the w-wide label
// image, within its box (x0, y0, bw, bh) around its centroid (cx, cy),
// when the region is drawn out along it (its spread along it at least
// twice that across); else zero.
func regionAxis(labels []int32, w int, label int32, x0, y0, bw, bh int, cx, cy float64) pt {
	var sxx, syy, sxy float64
	for y := y0; y < y0+bh; y++ {
		dy := float64(y) - cy
		for x := x0; x < x0+bw; x++ {
			if labels[y*w+x] == label {
				dx := float64(x) - cx
				sxx += dx * dx
				syy += dy * dy
				sxy += dx * dy
			}
		}
	}
	// The eigenvalues of the spread.
	tr, det := sxx+syy, sxx*syy-sxy*sxy
	disc := math.Sqrt(max(0, tr*tr/4-det))
	l1, l2 := tr/2+disc, tr/2-disc
	if l1 <= 0 || l1 < 4*l2 { // spreads squared: 2x apart
		return pt{}
	}
	a := 0.5 * math.Atan2(2*sxy, sxx-syy)
	return pt{math.Cos(a), math.Sin(a)}
}

// filledPatch copies the w x h patch of mask at (x0, y0) into the
// detector's scratch, with every hole (a region of unset pixels that does
// not reach the patch's border) set.
func (d *Detector) filledPatch(mask []byte, x0, y0, w, h int) []byte {
	fw := d.plane.w
	n := w * h
	// The patch inside a one-pixel frame, marked outside (2) from the
	// start, so that no step of the flood leaves the buffer.
	pw := w + 2
	pn := pw * (h + 2)
	if cap(d.patch) < n+pn {
		d.patch = make([]byte, n+pn)
		d.queue = make([]int32, 0, n)
	}
	p, q := d.patch[:n], d.patch[n:n+pn]
	for x := range pw {
		q[x], q[pn-pw+x] = 2, 2
	}
	for y := range h {
		row := q[(y+1)*pw : (y+2)*pw]
		row[0], row[pw-1] = 2, 2
		copy(row[1:pw-1], mask[(y0+y)*fw+x0:(y0+y)*fw+x0+w])
	}
	// Flood the unset pixels from the frame (from the patch's border
	// pixels, the only ones next to it); the unset pixels left are holes.
	st := d.queue[:0]
	seed := func(i int) {
		if q[i] == 0 {
			q[i] = 2
			st = append(st, int32(i))
		}
	}
	for x := 1; x <= w; x++ {
		seed(pw + x)
		seed(h*pw + x)
	}
	for y := 2; y < h; y++ {
		seed(y*pw + 1)
		seed(y*pw + w)
	}
	for len(st) > 0 {
		i := int(st[len(st)-1])
		st = st[:len(st)-1]
		for _, j := range [4]int{i - 1, i + 1, i - pw, i + pw} {
			if q[j] == 0 {
				q[j] = 2
				st = append(st, int32(j))
			}
		}
	}
	d.queue = st
	for y := range h {
		row := q[(y+1)*pw+1 : (y+1)*pw+1+w]
		for x, v := range row {
			if v == 2 { // outside
				p[y*w+x] = 0
			} else { // set, or a hole
				p[y*w+x] = 1
			}
		}
	}
	return p
}

// keepRoundSeeds keeps, with a calibration, the circles among the
// candidates (before any is verified as a disk) of about the size of a
// round kind of token: from tokenSeedLeast to tokenSeedMost of its
// radius (a chit's outline, blurred and widened by its side and shadow,
// measures up to a spell's size). A round chit that its colour does not
// part from what it lies on is found at them (see fitRoundSeeds).
func (d *Detector) keepRoundSeeds(cands []candidate) {
	d.roundSeeds = d.roundSeeds[:0]
	if d.plane.cal == nil {
		return
	}
	for _, c := range cands {
		for _, k := range d.opt.Tokens {
			if k.Shape == "round" && c.c.R >= tokenSeedLeast*k.Length/2 && c.c.R <= tokenSeedMost*k.Length/2 {
				d.roundSeeds = append(d.roundSeeds, c.c)
				break
			}
		}
	}
}

// A circle is a seed for a round kind when its radius is from
// tokenSeedLeast to tokenSeedMost of the kind's.
const (
	tokenSeedLeast = 0.8
	tokenSeedMost  = 1.45
)

// fitRoundSeeds looks for chits of round kind ki at the circles of about
// its size the disk search found (d.roundSeeds): a chit lying on the
// table or a disk of its own colour joins it in the colour mask, so that
// no region parts it, but its outline is a circle. Each is placed by the
// edges within tokenSeedReach of the circle's centre (fitOutline) and
// kept as keepOnGround says, with at least tokenSeedFrame of its outline
// a step of colour in the frame: a circle, unlike a straight side, is
// seldom the ground's grain.
func (d *Detector) fitRoundSeeds(ki int, mask, edges []byte, colour bgrImage, found *[]tokenFit) {
	k := d.opt.Tokens[ki]
	t := &d.templates[ki]
	tried := d.seedsTried[:0]
	defer func() { d.seedsTried = tried[:0] }()
seeds:
	for _, s := range d.roundSeeds {
		if s.R < tokenSeedLeast*k.Length/2 || s.R > tokenSeedMost*k.Length/2 {
			continue
		}
		// Not where a chit was found already (by its colour, mostly).
		for _, f := range *found {
			if f.tableC.sub(s.C).len() < k.Width/2 {
				continue seeds
			}
		}
		c, ok := d.onMask(s.C, mask)
		if !ok {
			continue
		}
		// Nor again at about the same place (the vote and the arcs often
		// find the same circle).
		for _, q := range tried {
			if q.sub(c).len() < 1 {
				continue seeds
			}
		}
		tried = append(tried, c)
		if f, ok := d.fitOutline(t, mask, edges, c.X, c.Y, tokenSeedReach, 0); ok {
			d.keepOnGround(ki, f, colour, tokenSeedFrame, found)
		}
	}
}

// onMask returns where table point q (at height 0) lies in the detection
// image, when it lies there on a pixel of mask.
func (d *Detector) onMask(q pt, mask []byte) (pt, bool) {
	pl := d.plane
	c, ok := pl.detection(q, 0)
	if !ok || c.X < 0 || c.Y < 0 || c.X > float64(pl.w-1) || c.Y > float64(pl.h-1) || mask[int(c.Y)*pl.w+int(c.X)] == 0 {
		return pt{}, false
	}
	return c, true
}

// tokenSeedReach is how far, detection pixels, from a seed circle's
// centre a round chit is placed by the edges; tokenSeedFrame is the least
// share of its outline that must be a step of colour in the frame.
const (
	tokenSeedReach = 1
	tokenSeedFrame = 0.7
)
