package synth

import (
	"math"
	"math/rand/v2"
)

// rgb is a colour with channels in [0, 1].
type rgb struct{ R, G, B float64 }

func (c rgb) scale(k float64) rgb { return rgb{c.R * k, c.G * k, c.B * k} }
func (c rgb) add(d rgb) rgb       { return rgb{c.R + d.R, c.G + d.G, c.B + d.B} }
func (c rgb) mul(d rgb) rgb       { return rgb{c.R * d.R, c.G * d.G, c.B * d.B} }
func mix(a, b rgb, t float64) rgb { return a.scale(1 - t).add(b.scale(t)) }

// hsvColour returns the colour of hue h (turns), saturation s, value v.
func hsvColour(h, s, v float64) rgb {
	h = (h - math.Floor(h)) * 6
	i := math.Floor(h)
	f := h - i
	p, q, t := v*(1-s), v*(1-s*f), v*(1-s*(1-f))
	switch int(i) {
	case 0:
		return rgb{v, t, p}
	case 1:
		return rgb{q, v, p}
	case 2:
		return rgb{p, v, t}
	case 3:
		return rgb{p, q, v}
	case 4:
		return rgb{t, p, v}
	}
	return rgb{v, p, q}
}

func randomColour(rng *rand.Rand) rgb {
	return hsvColour(rng.Float64(), 0.3+0.6*rng.Float64(), 0.25+0.7*rng.Float64())
}

// prim is one printed shape of a piece's art, in the piece's own frame
// (cm, centred, unrotated).
type prim struct {
	kind       int // primDisc, primRing, primLine, primRect
	x, y, a, b float64
	w          float64 // line or ring width
	c          rgb
}

const (
	primDisc = iota
	primRing
	primLine
	primRect
)

// art is a piece's printed face: a background with a radial gradient,
// then shapes painted in order, then the rim.
type art struct {
	bg, bg2 rgb
	rim     rgb
	rimW    float64
	angle   float64
	prims   []prim
}

// newArt draws a disk face of radius r: a figure of blobs, decorative
// rings and lines, a name banner with letter marks, stat circles.
func newArt(rng *rand.Rand, r float64, rim rgb) art {
	a := art{bg: randomColour(rng), rim: rim, rimW: 0.22 + 0.12*rng.Float64(), angle: 2 * math.Pi * rng.Float64()}
	a.bg2 = mix(a.bg, randomColour(rng), 0.5)
	in := r - a.rimW
	for range 2 + rng.IntN(4) { // the figure
		rr := in * (0.15 + 0.3*rng.Float64())
		a.prims = append(a.prims, prim{kind: primDisc, x: in * 0.4 * (rng.Float64() - 0.5), y: in * 0.5 * (rng.Float64() - 0.3), a: rr, c: randomColour(rng)})
	}
	for range 1 + rng.IntN(2) { // printed rings: circles inside the disk
		a.prims = append(a.prims, prim{kind: primRing, a: in * (0.55 + 0.4*rng.Float64()), w: 0.04 + 0.06*rng.Float64(), c: randomColour(rng)})
	}
	for range 2 + rng.IntN(4) { // straight lines: weapons, banners, scenery
		t0, t1 := 2*math.Pi*rng.Float64(), 2*math.Pi*rng.Float64()
		a.prims = append(a.prims, prim{kind: primLine, x: 0.8 * in * math.Cos(t0), y: 0.8 * in * math.Sin(t0),
			a: 0.8 * in * math.Cos(t1), b: 0.8 * in * math.Sin(t1), w: 0.03 + 0.05*rng.Float64(), c: randomColour(rng)})
	}
	// Name banner and its letters.
	by := -in * (0.45 + 0.1*rng.Float64())
	a.prims = append(a.prims, prim{kind: primRect, x: 0, y: by, a: in * 0.7, b: in * 0.1, c: rgb{0.9, 0.87, 0.78}})
	ink := rgb{0.1, 0.08, 0.06}
	for k := -5; k <= 5; k++ {
		if rng.Float64() < 0.8 {
			a.prims = append(a.prims, prim{kind: primRect, x: float64(k) * in * 0.11, y: by, a: in * 0.035, b: in * 0.05, c: ink})
		}
	}
	// Stat circles along the bottom, each with a mark.
	for k := -1; k <= 1; k++ {
		x, y := float64(k)*in*0.38, in*0.62
		if math.Hypot(x, y) > in*0.85 {
			continue
		}
		a.prims = append(a.prims, prim{kind: primDisc, x: x, y: y, a: in * 0.14, c: randomColour(rng)},
			prim{kind: primRing, x: x, y: y, a: in * 0.14, w: 0.03, c: ink},
			prim{kind: primRect, x: x, y: y, a: in * 0.03, b: in * 0.07, c: rgb{0.95, 0.95, 0.95}})
	}
	return a
}

// newTokenArt draws a chit's face.
func newTokenArt(rng *rand.Rand, kind string) art {
	base := map[string]rgb{
		"arrow": {0.62, 0.45, 0.25}, "bolt": {0.55, 0.55, 0.58}, "fireball": {0.95, 0.5, 0.1},
		"boulder": {0.5, 0.48, 0.45}, "damage": {0.75, 0.1, 0.1}, "gold": {0.9, 0.75, 0.2}, "activation": {0.92, 0.92, 0.9},
	}[kind]
	a := art{bg: base, bg2: base.scale(0.85), rim: base.scale(0.6), rimW: 0.06, angle: 0}
	dark := rgb{0.1, 0.1, 0.1}
	switch kind {
	case "arrow", "bolt":
		a.prims = append(a.prims, prim{kind: primLine, x: -1, y: 0, a: 1, b: 0, w: 0.08, c: dark})
	case "fireball":
		a.prims = append(a.prims, prim{kind: primRing, a: 0.45, w: 0.1, c: rgb{0.8, 0.1, 0.05}})
	case "damage", "activation":
		a.prims = append(a.prims, prim{kind: primDisc, a: 0.18, c: rgb{0.95, 0.95, 0.95}.scale(0.3 + 0.7*rng.Float64())})
	}
	return a
}

// colourAt returns the art's colour at (x, y) in the piece's frame (cm)
// for a piece whose outline is at distance edge (cm, positive inside)
// and whose size is r.
func (a *art) colourAt(x, y, edge, r float64) rgb {
	if edge < a.rimW {
		return a.rim
	}
	c, s := math.Cos(a.angle), math.Sin(a.angle)
	x, y = c*x+s*y, -s*x+c*y
	col := mix(a.bg, a.bg2, math.Min(1, math.Hypot(x, y)/r))
	for i := range a.prims {
		p := &a.prims[i]
		if p.inside(x, y) {
			col = p.c
		}
	}
	// A thin light line between the art and the rim.
	if edge < a.rimW+0.03 {
		return rgb{0.92, 0.9, 0.85}
	}
	return col
}

func (p *prim) inside(x, y float64) bool {
	switch p.kind {
	case primDisc:
		return (x-p.x)*(x-p.x)+(y-p.y)*(y-p.y) < p.a*p.a
	case primRing:
		return math.Abs(math.Hypot(x-p.x, y-p.y)-p.a) < p.w/2
	case primRect:
		return math.Abs(x-p.x) < p.a && math.Abs(y-p.y) < p.b
	}
	// Segment from (x, y) to (a, b) of width w.
	dx, dy := p.a-p.x, p.b-p.y
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((x-p.x)*dx+(y-p.y)*dy)/l2))
	}
	return math.Hypot(x-p.x-t*dx, y-p.y-t*dy) < p.w/2
}

// valueNoise is smooth pseudo-random noise in [0, 1] at (x, y), the same
// for the same seed.
func valueNoise(seed uint64, x, y float64) float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	fx, fy = fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	ix, iy := int64(x0), int64(y0)
	h := func(i, j int64) float64 {
		v := uint64(i)*0x9e3779b97f4a7c15 ^ uint64(j)*0xc2b2ae3d27d4eb4f ^ seed
		v ^= v >> 33
		v *= 0xff51afd7ed558ccd
		v ^= v >> 33
		return float64(v>>11) / float64(1<<53)
	}
	a, b := h(ix, iy), h(ix+1, iy)
	c, d := h(ix, iy+1), h(ix+1, iy+1)
	return a + (b-a)*fx + (c-a)*fy + (a-b-c+d)*fx*fy
}

// tableLook is the table's surface: wood, felt or a printed mat.
type tableLook struct {
	kind       int
	base, alt  rgb
	seed       uint64
	grid, freq float64
}

func newTableLook(rng *rand.Rand) tableLook {
	t := tableLook{kind: rng.IntN(3), seed: rng.Uint64()}
	switch t.kind {
	case 0: // wood
		t.base, t.alt = hsvColour(0.07+0.03*rng.Float64(), 0.5, 0.55+0.2*rng.Float64()), hsvColour(0.06, 0.6, 0.35)
		t.freq = 0.8 + rng.Float64()
	case 1: // felt
		t.base = hsvColour(0.25+0.2*rng.Float64(), 0.5, 0.35+0.2*rng.Float64())
		t.alt = t.base.scale(0.8)
	default: // printed mat with a grid
		t.base = hsvColour(rng.Float64(), 0.2, 0.5+0.3*rng.Float64())
		t.alt = t.base.scale(0.55)
		t.grid = 5 + 5*rng.Float64()
	}
	return t
}

// colourAt returns the table's colour at table point (x, y), cm.
func (t *tableLook) colourAt(x, y float64) rgb {
	n := valueNoise(t.seed, x*0.7, y*0.7)*0.6 + valueNoise(t.seed+1, x*3, y*3)*0.4
	switch t.kind {
	case 0:
		g := 0.5 + 0.5*math.Sin(y*t.freq*6+n*6)
		return mix(t.base, t.alt, 0.35*g+0.15*valueNoise(t.seed+2, x*0.3, y*8))
	case 1:
		return mix(t.base, t.alt, n)
	}
	col := mix(t.base, t.alt, 0.25*n)
	gx := math.Abs(x/t.grid - math.Round(x/t.grid))
	gy := math.Abs(y/t.grid - math.Round(y/t.grid))
	if math.Min(gx, gy)*t.grid < 0.06 {
		return t.alt
	}
	return col
}

// light is a directional light with an uneven spread over the frame.
type light struct {
	dir          [3]float64 // toward the light: x, y, up (unit)
	ambient      float64
	gradX, gradY float64 // brightness slope across the frame
	spotX, spotY float64 // a bright patch, frame fractions
	spotW, spotK float64
	vignette     float64
	cast         rgb // colour of the light
	shadowSoft   float64
}

func newLight(rng *rand.Rand, spec tierSpec) light {
	az := 2 * math.Pi * rng.Float64()
	el := (45 + 35*rng.Float64()) * math.Pi / 180
	u := spec.unevenLight
	return light{
		dir:     [3]float64{math.Cos(el) * math.Cos(az), math.Cos(el) * math.Sin(az), math.Sin(el)},
		ambient: 0.35 + 0.15*rng.Float64(),
		gradX:   u * (rng.Float64() - 0.5), gradY: u * (rng.Float64() - 0.5),
		spotX: rng.Float64(), spotY: rng.Float64(), spotW: 0.3 + 0.3*rng.Float64(), spotK: u * rng.Float64(),
		vignette:   0.1 + u*0.5,
		cast:       rgb{1 + 0.08*(rng.Float64()-0.5), 1, 1 + 0.08*(rng.Float64()-0.5)},
		shadowSoft: 0.08 + 0.1*rng.Float64(),
	}
}

// raisedTo returns the light moved to deg degrees above the horizon, on
// the same side, its strength scaled so that the lit table is as bright
// as under a light 60 degrees up (a camera's automatic exposure).
func (l light) raisedTo(deg float64) light {
	az := math.Atan2(l.dir[1], l.dir[0])
	el := deg * math.Pi / 180
	lit := func(up float64) float64 { return l.ambient + (1-l.ambient)*up }
	g := lit(math.Sin(math.Pi/3)) / lit(math.Sin(el))
	l.dir = [3]float64{math.Cos(el) * math.Cos(az), math.Cos(el) * math.Sin(az), math.Sin(el)}
	l.cast = l.cast.scale(g)
	return l
}

// gain is the light's strength at frame position (fx, fy) in [0, 1].
func (l *light) gain(fx, fy float64) float64 {
	g := 1 + l.gradX*(fx-0.5)*2 + l.gradY*(fy-0.5)*2
	d2 := (fx-l.spotX)*(fx-l.spotX) + (fy-l.spotY)*(fy-l.spotY)
	g += l.spotK * math.Exp(-d2/(l.spotW*l.spotW))
	r2 := (fx-0.5)*(fx-0.5) + (fy-0.5)*(fy-0.5)
	return g * (1 - l.vignette*r2*2)
}
