package vision

import (
	"fmt"
	"math"
	"sync"

	"tableref/calibration"
)

// workPlane maps detection pixels to the working plane and back. Without
// a calibration the working plane is the full frame's pixels; with one it
// is the table in centimetres, where every disk is a circle whatever the
// camera's tilt.
type workPlane struct {
	w, h  int     // detection image size
	scale float64 // full-frame pixels per detection pixel
	cal   *calibration.Calibration
	pixel float64 // working units per detection pixel, near the frame's centre
	lut   []pt    // calibrated: table point at height 0 of each detection pixel
	lutOK []bool
	// The table-to-image mapping, taken from the calibration once: the
	// inverse of its homography, the camera's foot and height, and the
	// sign of w for points in front of the camera.
	hinv  calibration.Mat3
	eye   pt
	eyeH  float64
	wSign float64
}

// sharedPlanes holds the work planes built last: a plane is read-only once
// built, and the detectors of one camera (a stream's workers, a benchmark's
// detector after detector) share it rather than each mapping every
// detection pixel onto the table again (about 60 ms for 960x540). A plane
// is found by its size, scale and calibration (the same
// *calibration.Calibration, as workPlane.fits compares: a calibration
// changed in place keeps the plane built for it, as a detector always
// did).
var sharedPlanes struct {
	sync.Mutex
	last []*workPlane
}

// maxSharedPlanes is the most work planes sharedPlanes keeps.
const maxSharedPlanes = 2

// sharedWorkPlane returns the work plane of the given size, scale and
// calibration: the one built last for them if any, else a new one.
func sharedWorkPlane(w, h int, scale float64, cal *calibration.Calibration) (*workPlane, error) {
	shared := &sharedPlanes
	shared.Lock()
	defer shared.Unlock()
	for _, p := range shared.last {
		if p.fits(w, h, scale, cal) {
			return p, nil
		}
	}
	p, err := newWorkPlane(w, h, scale, cal)
	if err != nil {
		return nil, err
	}
	if len(shared.last) >= maxSharedPlanes {
		shared.last = shared.last[1:]
	}
	shared.last = append(shared.last, p)
	return p, nil
}

func newWorkPlane(w, h int, scale float64, cal *calibration.Calibration) (*workPlane, error) {
	p := &workPlane{w: w, h: h, scale: scale, cal: cal, pixel: scale}
	if cal == nil {
		return p, nil
	}
	if w < 3 || h < 3 {
		return nil, fmt.Errorf("a %dx%d detection image is too small to map onto the table", w, h)
	}
	inv, ok := cal.Plane.H.Inverse()
	if !ok {
		return nil, fmt.Errorf("the calibration's table homography is singular")
	}
	p.hinv, p.eye, p.eyeH = inv, pt{float64(cal.Plane.Eye.X), float64(cal.Plane.Eye.Y)}, float64(cal.Plane.EyeHeight)
	p.lut = make([]pt, w*h)
	p.lutOK = make([]bool, w*h)
	for y := range h {
		for x := range w {
			u, v := p.full(float64(x), float64(y))
			q, err := cal.TableFromImage(u, v, 0)
			if err == nil && finite(float64(q.X)) && finite(float64(q.Y)) {
				p.lut[y*w+x] = pt{float64(q.X), float64(q.Y)}
				p.lutOK[y*w+x] = true
			}
		}
	}
	cx, cy := w/2, h/2
	a, b := p.lut[cy*w+cx], p.lut[cy*w+cx+1]
	c := p.lut[(cy+1)*w+cx]
	if !p.lutOK[cy*w+cx] || !p.lutOK[cy*w+cx+1] || !p.lutOK[(cy+1)*w+cx] {
		return nil, fmt.Errorf("the calibration does not see the table at the centre of the frame")
	}
	p.pixel = (a.sub(b).len() + a.sub(c).len()) / 2
	centre := p.hinv.MulVec(calibration.Vec3{a.X, a.Y, 1})
	p.wSign = math.Copysign(1, centre[2])
	return p, nil
}

func (p *workPlane) fits(w, h int, scale float64, cal *calibration.Calibration) bool {
	return p.w == w && p.h == h && p.scale == scale && p.cal == cal
}

// full returns the full-frame pixel at the centre of detection pixel (x, y).
func (p *workPlane) full(x, y float64) (float64, float64) {
	return (x+0.5)*p.scale - 0.5, (y+0.5)*p.scale - 0.5
}

// detection returns where table point q, at the given height, lies in
// the detection image, pixels (the inverse of full after toImage); false
// where it cannot be mapped.
func (p *workPlane) detection(q pt, height float64) (pt, bool) {
	u, v, ok := p.toImage(q, height)
	return pt{(u+0.5)/p.scale - 0.5, (v+0.5)/p.scale - 0.5}, ok
}

// chainPoints appends to out a chain's pixels mapped to the working plane,
// leaving out pixels that see no table.
func (p *workPlane) chainPoints(ch chain, out []pt) []pt {
	for _, i := range ch.px {
		if p.cal == nil {
			u, v := p.full(float64(int(i)%p.w), float64(int(i)/p.w))
			out = append(out, pt{u, v})
		} else if p.lutOK[i] {
			out = append(out, p.lut[i])
		}
	}
	return out
}

// toImage maps a working-plane point on a surface height cm above the
// table to a full-frame pixel.
func (p *workPlane) toImage(q pt, height float64) (float64, float64, bool) {
	if p.cal == nil {
		return q.X, q.Y, true
	}
	if height >= p.eyeH {
		return 0, 0, false
	}
	// The ray from the camera through the raised point meets the table at g.
	g := p.seenOnTable(circle{q, 0}, height).C
	v := p.hinv.MulVec(calibration.Vec3{g.X, g.Y, 1})
	if v[2]*p.wSign <= 0 {
		return 0, 0, false
	}
	px := p.cal.Lens.Distorted(calibration.Pixel{U: v[0] / v[2], V: v[1] / v[2]})
	return px.U, px.V, true
}

// pixelAt returns the length on the table, cm, of a detection pixel
// seeing table point q (pixel when q is not seen).
func (p *workPlane) pixelAt(q pt) float64 {
	if p.cal == nil {
		return p.pixel
	}
	u, v, ok := p.toImage(q, 0)
	if !ok {
		return p.pixel
	}
	x, y := int(math.Floor((u+0.5)/p.scale-0.5)), int(math.Floor((v+0.5)/p.scale-0.5))
	if x < 0 || y < 0 || x+1 >= p.w || y+1 >= p.h {
		return p.pixel
	}
	i := y*p.w + x
	if !p.lutOK[i] || !p.lutOK[i+1] || !p.lutOK[i+p.w] {
		return p.pixel
	}
	return pixelSpan(p.lut[i+1].sub(p.lut[i]), p.lut[i+p.w].sub(p.lut[i]))
}

// pixelSpan is the length on the table of a detection pixel whose
// neighbours to the right and below lie du and dv from it: the mean of
// the two.
func pixelSpan(du, dv pt) float64 { return (du.len() + dv.len()) / 2 }

// seenOnTable returns circle c, lying height cm above the table (below
// the camera), where the camera sees it on the table: scaled about the
// camera's foot.
func (p *workPlane) seenOnTable(c circle, height float64) circle {
	k := p.eyeH / (p.eyeH - height)
	return circle{p.eye.add(c.C.sub(p.eye).scale(k)), c.R * k}
}

// toWork maps a full-frame pixel seeing a surface height cm above the
// table to the working plane.
func (p *workPlane) toWork(u, v, height float64) (pt, bool) {
	if p.cal == nil {
		return pt{u, v}, true
	}
	// The table point at height 0, interpolated in the look-up table (the
	// mapping is smooth: the error is far below a micrometre), then moved
	// along the ray towards the camera to the given height.
	x, y := (u+0.5)/p.scale-0.5, (v+0.5)/p.scale-0.5
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	if x0 < 0 || y0 < 0 || x0+1 >= p.w || y0+1 >= p.h || height >= p.eyeH {
		return pt{}, false
	}
	i := y0*p.w + x0
	if !p.lutOK[i] || !p.lutOK[i+1] || !p.lutOK[i+p.w] || !p.lutOK[i+p.w+1] {
		return pt{}, false
	}
	fx, fy := x-float64(x0), y-float64(y0)
	a := p.lut[i].scale(1 - fx).add(p.lut[i+1].scale(fx))
	b := p.lut[i+p.w].scale(1 - fx).add(p.lut[i+p.w+1].scale(fx))
	return p.raised(a.scale(1-fy).add(b.scale(fy)), height), true
}

// raised returns the point height cm above the table that the camera sees
// where it sees table point g: moved along the ray towards the camera.
func (p *workPlane) raised(g pt, height float64) pt {
	if p.cal == nil {
		return g
	}
	return g.add(p.eye.sub(g).scale(height / p.eyeH))
}

// coverage returns the fraction of circle c (on the table) under which the
// edge map has an edge within a pixel, with its gradient across the
// circle, and the length of that seen outline in detection pixels. Points
// outside the frame, or inside one of the circles others (which may cover
// this one), are not counted. A circle mostly outside the frame scores 0.
func (p *workPlane) coverage(c circle, em edgeMap, others []circle) (float64, float64) {
	img := p.outlineInImage(c)
	return p.coverageOf(c, &img, em, others, coverageProbes(c, p.pixel))
}

// coverageProbes is how many probes coverage takes around circle c.
func coverageProbes(c circle, pixel float64) int {
	n := int(math.Round(2 * math.Pi * c.R / pixel / 2))
	return min(max(n, 48), 200)
}

// coverageN is coverage with n probes.
func (p *workPlane) coverageN(c circle, em edgeMap, others []circle, n int) (float64, float64) {
	img := p.outlineInImage(c)
	return p.coverageOf(c, &img, em, others, n)
}

// coverageOf is coverageN of a circle whose outline in the image is img.
func (p *workPlane) coverageOf(c circle, img *imageOutline, em edgeMap, others []circle, n int) (float64, float64) {
	var buf [256]int8 // on the stack: outlines are checked by the thousand
	hits := buf[:0]
	if n <= len(buf) {
		hits = buf[:n]
	} else {
		hits = make([]int8, n)
	}
	margin := 2 * p.pixel
	// Only the circles within reach of this one may hide or cross it.
	var near [16]circle
	within := near[:0]
	for _, o := range others {
		if c.C.sub(o.C).len() < c.R+o.R+margin {
			within = append(within, o)
		}
	}
	inFrame, valid := p.outlineHits(c, img, em, within, nil, hits)
	// Most of a disk lies inside the frame.
	if inFrame < n*6/10 || valid == 0 {
		return 0, 0
	}
	h := runHits(hits, 4)
	return float64(h) / float64(valid), float64(h) * 2 * math.Pi * c.R / float64(n) / p.pixel
}

// outlineHits probes circle c's outline at len(hits) angles (img: the
// outline in the image) and sets each probe's hit: 1 where an edge of the
// image crosses the outline there, with a colour step across it; 0 where
// none does; -1 where the probe is not seen: off the frame (or within a
// pixel of its border), inside or on the outline of one of others (inside
// another disk this one may be hidden; on another disk's outline an edge
// says nothing about this one), or, when only is not nil, not inside it.
// It returns the probes on the frame and those seen.
func (p *workPlane) outlineHits(c circle, img *imageOutline, em edgeMap, others []circle, only *circle, hits []int8) (inFrame, valid int) {
	n := len(hits)
	margin := 2 * p.pixel
	// The probe's place on the table, only where another circle asks.
	onTable := only != nil || len(others) > 0
	var q pt
	for k := range n {
		hits[k] = -1
		a := 2 * math.Pi * float64(k) / float64(n)
		if onTable {
			q = c.at(a)
		}
		if only != nil && only.dist(q) >= -margin {
			continue
		}
		u, v, nx, ny, ok := img.at(a)
		if !ok {
			continue
		}
		x := int(math.Round((u+0.5)/p.scale - 0.5))
		y := int(math.Round((v+0.5)/p.scale - 0.5))
		if x < 1 || y < 1 || x >= em.w-1 || y >= em.h-1 {
			continue
		}
		inFrame++
		if onTable && (insideAny(q, others, margin) || onAny(q, others, margin)) {
			continue
		}
		valid++
		hits[k] = 0
		// A colour step across the outline, 2.5 detection pixels each side.
		xi, yi := (u+0.5)/p.scale-0.5, (v+0.5)/p.scale-0.5
		if !em.step(xi-2.5*nx, yi-2.5*ny, xi+2.5*nx, yi+2.5*ny) {
			continue
		}
	near:
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				i := (y+dy)*em.w + x + dx
				if em.pix[i] != 0 && em.aligned(i, nx, ny) {
					hits[k] = 1
					break near
				}
			}
		}
	}
	return inFrame, valid
}

// snapToEdges fits circle c again to the edges of the image along its
// outline: at each of coverage's probes, the edge pixel nearest the
// outline within snapBand detection pixels of it, across it, whose
// gradient lies along the outline's normal. It returns the share of the
// probes that found one, and false when under half did, or the fit
// failed.
func (p *workPlane) snapToEdges(c circle, em edgeMap) (circle, float64, bool) {
	img := p.outlineInImage(c)
	n := coverageProbes(c, p.pixel)
	pts := make([]pt, 0, n)
	for k := range n {
		u, v, nx, ny, ok := img.at(2 * math.Pi * float64(k) / float64(n))
		if !ok {
			continue
		}
		xi, yi := (u+0.5)/p.scale-0.5, (v+0.5)/p.scale-0.5
	search:
		for s := 0; s <= 2*snapBand; s++ {
			for _, t := range [2]float64{0.5 * float64(s), -0.5 * float64(s)} {
				x, y := int(math.Round(xi+t*nx)), int(math.Round(yi+t*ny))
				if x < 1 || y < 1 || x >= em.w-1 || y >= em.h-1 {
					continue
				}
				if i := y*em.w + x; em.pix[i] != 0 && em.aligned(i, nx, ny) {
					// The edge pixel's centre: the probe's own place
					// would lean towards where the search began.
					if q, ok := p.toWork((float64(x)+0.5)*p.scale-0.5, (float64(y)+0.5)*p.scale-0.5, 0); ok {
						pts = append(pts, q)
					}
					break search
				}
			}
		}
	}
	if 2*len(pts) < n {
		return c, 0, false
	}
	nc, _, err := fitCircleRobust(pts, p.pixel, reweighRounds)
	if err != nil {
		return c, 0, false
	}
	return nc, float64(len(pts)) / float64(n), true
}

// snapBand is how far, detection pixels, from a circle's outline
// snapToEdges looks for its edge.
const snapBand = 3

// insideOf counts coverage's probes of circle c that lie inside circle k
// (by more than the margin coverage leaves) and are seen, off others, n,
// and those of them that find c's outline, hit: where two disks overlap,
// the upper one's outline shows and the lower one's is hidden.
func (p *workPlane) insideOf(c, k circle, others []circle, em edgeMap) (hit, n int) {
	img := p.outlineInImage(c)
	hits := make([]int8, coverageProbes(c, p.pixel))
	_, n = p.outlineHits(c, &img, em, others, &k, hits)
	for _, h := range hits {
		if h == 1 {
			hit++
		}
	}
	return hit, n
}

// shadowBeside reports whether what is seen of circle c, off the disks
// casters, is the edge of a shadow one of them casts: every probe seen lies
// in a band outside a caster, at most shadowDepth of its radius or of c's
// (the smaller: the band is a crescent of c) deep, and
// where the band is wide enough to sample (shadowBand), at least
// shadowShare of the probes find the band the ground beyond c's outline
// in shadow (shadowLab) and the caster's outline across it seen (an edge
// there). A disk lying under another and showing only a sliver of its
// face is kept: its face is not the ground darkened. So is a disk with a
// dark rim lying on another, though its rim may look like the ground in
// shadow (black on a grey table): the outline of the disk under it is
// hidden where the band would end.
func (p *workPlane) shadowBeside(c circle, em edgeMap, casters []circle) bool {
	if em.lab == nil || len(casters) == 0 {
		return false
	}
	img := p.outlineInImage(c)
	n := coverageProbes(c, p.pixel)
	margin := 2 * p.pixel
	sampled, shaded := 0, 0
	// The casters' outlines in the image, mapped when first needed.
	outlines := make([]*imageOutline, len(casters))
	for k := range n {
		a := 2 * math.Pi * float64(k) / float64(n)
		u, v, nx, ny, ok := img.at(a)
		if !ok {
			continue
		}
		q := c.at(a)
		if insideAny(q, casters, margin) || onAny(q, casters, margin) {
			continue
		}
		// The caster whose outline is nearest outside.
		depth, near := math.Inf(1), 0
		for i, o := range casters {
			if dd := o.dist(q); dd < depth {
				depth, near = dd, i
			}
		}
		if depth > shadowDepth*min(casters[near].R, c.R) {
			return false
		}
		// Detection pixels: the band, inward from the probe along the
		// outline's normal, and the ground 2.5 pixels out.
		band := depth / p.pixel
		if band < shadowBand {
			continue
		}
		xi, yi := (u+0.5)/p.scale-0.5, (v+0.5)/p.scale-0.5
		in, ok0 := em.labMean(xi-0.5*band*nx, yi-0.5*band*ny)
		out, ok1 := em.labMean(xi+2.5*nx, yi+2.5*ny)
		if !ok0 || !ok1 {
			continue
		}
		sampled++
		if !shadowLab(in, out) {
			continue
		}
		// The caster's outline where the band ends.
		o := casters[near]
		if outlines[near] == nil {
			ol := p.outlineInImage(o)
			outlines[near] = &ol
		}
		d := q.sub(o.C)
		ra := math.Atan2(d.Y, d.X)
		if ra < 0 {
			ra += 2 * math.Pi
		}
		ru, rv, rnx, rny, ok := outlines[near].at(ra)
		if ok && em.edgeNear(int(math.Round((ru+0.5)/p.scale-0.5)), int(math.Round((rv+0.5)/p.scale-0.5)), rnx, rny) {
			shaded++
		}
	}
	return sampled >= shadowLeast && float64(shaded) >= shadowShare*float64(sampled)
}

// shadowLab reports whether Lab colour in (OpenCV's 8-bit scale) is
// colour out in shadow, as shadowStep tells it in RGB: a quarter to 85 %
// as bright, of the same chromaticity. Lab's L is 116 f(Y) - 16 and its a
// and b differences of f, with f a cube root: scaling a colour's light by
// s scales f, so L + 16 and the a and b off grey, by the cube root of s.
func shadowLab(in, out [3]float64) bool {
	fIn, fOut := in[0]*100/255+16, out[0]*100/255+16
	k := fIn / fOut
	if out[0] < 40 || k*k*k < 0.25 || k*k*k > 0.85 {
		return false
	}
	da := in[1] - 128 - k*(out[1]-128)
	db := in[2] - 128 - k*(out[2]-128)
	return math.Hypot(da, db) <= shadowLabChroma
}

// The shadow a disk casts, taken for the edge of a disk under it (see
// shadowBeside). On coins.png of the real photographs a coin's shadow is 8
// pixels wide at most beside a coin of radius 34, and 27 of the 29 probes
// seen find it; on stuff.jpg (testdata/opencv) a stone's is 16 pixels
// wide beside a circle of radius 30. Under a lamp 30 degrees above a
// rendered table, a stack three disks high casts one up to half a disk's
// radius wide.
const (
	shadowDepth = 1.0
	shadowShare = 0.8
	shadowLeast = 6
	// shadowBand is the narrowest band, detection pixels, whose colour
	// is read: its 3x3 mean, taken mid-band, takes in the edges either
	// side of a narrower one. Under a lamp 20 degrees up (easy seed 19)
	// a circle of a disk's outline and its shadow's edge showed 14
	// probes of the band, 3 of them 2 pixels wide and not read as
	// shadow, and stood as a disk; over rendered tables (seeds 1-20,
	// three tiers) 3 pixels dropped 2 more such circles under a lamp 20
	// degrees up and 1 at 30, and changed nothing under the tiers' own
	// light (240 tables, both decoders) nor on the photographs.
	shadowBand = 3
	// shadowLabChroma is how far (Lab's 8-bit units) a shadowed colour's
	// a and b may lie from the lit colour's drawn towards grey: rendered
	// and real grounds are grained and their colours compressed.
	shadowLabChroma = 8
)

func onAny(q pt, cs []circle, margin float64) bool {
	for _, c := range cs {
		if math.Abs(c.dist(q)) <= margin {
			return true
		}
	}
	return false
}

func insideAny(q pt, cs []circle, margin float64) bool {
	for _, c := range cs {
		if c.dist(q) < -margin {
			return true
		}
	}
	return false
}

// runHits counts the hits that belong to runs of at least minRun
// consecutive hits around the circle: an outline is seen in stretches,
// while texture lines up with a circle only here and there.
func runHits(hits []int8, minRun int) int {
	n := len(hits)
	start := -1
	for k := range n {
		if hits[k] != 1 {
			start = k
			break
		}
	}
	if start < 0 {
		return n
	}
	total, run := 0, 0
	for i := 1; i <= n; i++ {
		if hits[(start+i)%n] == 1 {
			run++
			continue
		}
		if run >= minRun {
			total += run
		}
		run = 0
	}
	return total
}

// imageOutline is a circle of the table as the image shows it: the exact
// image of a few of its points and of their outward normals, between
// which it is interpolated. Mapping every probe through the lens model is
// what made outlines slow to check.
type imageOutline struct {
	u, v, nx, ny [outlineKnots + 1]float64
	ok           [outlineKnots + 1]bool
}

// outlineKnots is how many points of a circle are mapped exactly: with 32
// the interpolated outline of a 100-pixel disk is within 0.3 px.
const outlineKnots = 32

func (p *workPlane) outlineInImage(c circle) imageOutline {
	var o imageOutline
	for k := range outlineKnots {
		a := 2 * math.Pi * float64(k) / outlineKnots
		q := c.at(a)
		u, v, ok1 := p.toImage(q, 0)
		u2, v2, ok2 := p.toImage(q.add(pt{math.Cos(a), math.Sin(a)}.scale(p.pixel)), 0)
		nl := hypot(u2-u, v2-v)
		o.u[k], o.v[k], o.ok[k] = u, v, ok1 && ok2 && nl > 0
		if o.ok[k] {
			o.nx[k], o.ny[k] = (u2-u)/nl, (v2-v)/nl
		}
	}
	o.u[outlineKnots], o.v[outlineKnots], o.nx[outlineKnots], o.ny[outlineKnots], o.ok[outlineKnots] = o.u[0], o.v[0], o.nx[0], o.ny[0], o.ok[0]
	return o
}

// at returns the image point and unit outward normal of the outline at
// angle a of the circle.
func (o *imageOutline) at(a float64) (u, v, nx, ny float64, ok bool) {
	f := a / (2 * math.Pi) * outlineKnots
	k := int(f)
	if k < 0 || k >= outlineKnots || !o.ok[k] || !o.ok[k+1] {
		return 0, 0, 0, 0, false
	}
	t := f - float64(k)
	u = o.u[k]*(1-t) + o.u[k+1]*t
	v = o.v[k]*(1-t) + o.v[k+1]*t
	nx = o.nx[k]*(1-t) + o.nx[k+1]*t
	ny = o.ny[k]*(1-t) + o.ny[k+1]*t
	l := hypot(nx, ny)
	if l == 0 {
		return 0, 0, 0, 0, false
	}
	return u, v, nx / l, ny / l, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
