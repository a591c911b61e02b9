package vision

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"

	"gocv.io/x/gocv"

	"tableref/engine"
	"tableref/models"
)

// How tokens are found
//
// A token is a small flat chit of a known colour, size and shape (the token
// catalogue). With a calibration each kind's outline is fitted where its
// colour is (tokenfit.go). Without one, sizes in pixels are unknown and
// regions are measured instead: for each kind, the pixels that may be of
// the kind's colour under the table's light (colours.go) form regions; a
// region of the kind's area is measured from its pixels: its principal
// axes give its length and width, and how much
// of the rectangle on those axes it fills tells a round chit from a square
// or a long one. A region of the kind's shape and size is a token of that
// kind. Regions of two kinds on one chit are resolved by keeping the
// larger.

// TokenKind is one entry of the token catalogue.
type TokenKind struct {
	Kind string
	// Shape is "round", "square" or "long".
	Shape string
	// Length and Width are the token's sides in cm (its diameter twice
	// for a round one).
	Length, Width float64
	// Colour is the chit's colour as r, g, b in 0..255.
	Colour [3]float64
	// Plain says the chit carries no print: all of its face is of its
	// colour. A fit of a plain kind that is not (printed art, a badge on
	// a disk) must show the chit's contact shadow to be kept, and the
	// middle of its face must be mostly of its colour (a badge's mark
	// lies there).
	Plain bool
}

// DefaultTokenCatalogue is the bundled token set: long arrow and bolt
// chits, round fireball, boulder and gold chits (gold plain), square
// damage and activation markers. Give your own set's sizes and colours in
// Options.Tokens.
var DefaultTokenCatalogue = []TokenKind{
	{Kind: "arrow", Shape: "long", Length: 3.2, Width: 0.9, Colour: [3]float64{158, 115, 64}},
	{Kind: "bolt", Shape: "long", Length: 2.4, Width: 0.8, Colour: [3]float64{140, 140, 148}},
	{Kind: "fireball", Shape: "round", Length: 1.6, Width: 1.6, Colour: [3]float64{242, 128, 26}},
	{Kind: "boulder", Shape: "round", Length: 2.0, Width: 2.0, Colour: [3]float64{128, 122, 115}},
	{Kind: "gold", Shape: "round", Length: 1.3, Width: 1.3, Colour: [3]float64{230, 191, 51}, Plain: true},
	{Kind: "damage", Shape: "square", Length: 1.6, Width: 1.6, Colour: [3]float64{191, 26, 26}},
	{Kind: "activation", Shape: "square", Length: 1.4, Width: 1.4, Colour: [3]float64{235, 235, 230}},
}

// tokenSizeTolerance is how far (relative, plus 1.5 mm) a token's
// measured length and width may be from its catalogue entry's.
const tokenSizeTolerance = 0.25

// tokenShape is a candidate region.
type tokenShape struct {
	centre        pt // working plane, at height 0
	u, v          float64
	axis          pt      // unit vector of the long axis, working plane
	length, width float64 // working units
	fill          float64 // area over the rectangle on the principal axes
	shape         string
	pixels        int
	kind          string
	// confidence is how well a fitted chit fills its outline and stands
	// out of its surroundings, 0..1; a measured one has none (-1).
	confidence float64
}

// findTokens finds the tokens of the frame: for each kind of the
// catalogue, the pixels of its colour under the light there (light.go)
// form regions, and the regions of its size and shape are tokens of that
// kind.
func (d *Detector) findTokens(colour bgrImage, disks []diskFit) []*tokenShape {
	if len(d.opt.Tokens) == 0 {
		return nil
	}
	d.light = readLight(colour)
	if d.plane.cal != nil {
		return d.fitTokens(colour, disks)
	}
	return d.measureTokens()
}

// reach is the largest distance from the token's centre to its outline,
// in working units: its radius, or half its diagonal.
func (s *tokenShape) reach() float64 {
	if s.shape == "round" {
		return (s.length + s.width) / 4
	}
	return hypot(s.length, s.width) / 2
}

// tokenModels turns the tokens found into the layout's, on the disks
// found: a token lying on a disk is mapped at the height of its top face.
func (d *Detector) tokenModels(toks []*tokenShape, fits []diskFit) []models.Token {
	out := make([]models.Token, 0, len(toks))
	for _, s := range toks {
		t := d.tokenModel(s, fits, len(out))
		if s.confidence >= 0 {
			t.Extra = map[string]json.RawMessage{"confidence": json.RawMessage(strconv.FormatFloat(round3(s.confidence), 'f', -1, 64))}
		}
		out = append(out, t)
	}
	return out
}

// measureTokens finds the tokens of an uncalibrated frame, where sizes are
// unknown: each region of a kind's colour is measured, and kept when its
// shape is the kind's and its outline is an edge of the image (a patch
// where a shaded surface passes in and out of the kind's colour has none).
// A kind whose colour covers more than groundShare of the frame is the
// colour of the table, or of something large: without sizes nothing
// tells a chit of it from a patch of it, and it is not looked for.
func (d *Detector) measureTokens() []*tokenShape {
	pl := d.plane
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	var toks []*tokenShape
	raw, err := d.kindPixels()
	if err != nil {
		return nil
	}
	edges, err := d.edges.DataPtrUint8()
	if err != nil {
		return nil
	}
	ground := groundShare * float64(pl.w*pl.h)
	for ki, k := range d.opt.Tokens {
		// Close the thin lines printed across a chit.
		gocv.MorphologyEx(raw[ki], &d.tokMask, gocv.MorphClose, kernel)
		if float64(gocv.CountNonZero(d.tokMask)) > ground {
			continue
		}
		labels, regions := d.regions.labelRegions(d.tokMask, 8)
		minArea, maxArea := d.tokenAreaRange(k)
		for i := 1; i < len(regions); i++ {
			area := float64(regions[i].area)
			if area < minArea || area > maxArea {
				continue
			}
			// The region's pixels, from its bounding box only.
			x0, y0 := regions[i].x0, regions[i].y0
			w, h := regions[i].x1-x0, regions[i].y1-y0
			px := make([]pt, 0, int(area))
			for y := y0; y < y0+h; y++ {
				row := labels[y*pl.w : (y+1)*pl.w]
				for x := x0; x < x0+w; x++ {
					if row[x] == int32(i) {
						px = append(px, pt{float64(x), float64(y)})
					}
				}
			}
			s := &tokenShape{pixels: int(area), kind: k.Kind, confidence: -1}
			if d.measureToken(s, px) && d.fitsKind(s, k) && regionOnEdges(labels, int32(i), pl.w, pl.h, px, edges) >= tokenMeasuredEdge {
				toks = append(toks, s)
			}
		}
	}
	return dedupeTokens(toks)
}

// tokenMeasuredEdge is the least share of a measured token's boundary
// pixels that must lie within a pixel of an edge of the image.
const tokenMeasuredEdge = 0.7

// regionOnEdges is the share of the boundary pixels of the region of the
// given label (its pixels px; labels w x h) that lie within a pixel of an
// edge (edges non-zero).
func regionOnEdges(labels []int32, label int32, w, h int, px []pt, edges []byte) float64 {
	in := func(x, y int) bool { return x >= 0 && y >= 0 && x < w && y < h && labels[y*w+x] == label }
	hit, n := 0, 0
	for _, p := range px {
		x, y := int(p.X), int(p.Y)
		if in(x-1, y) && in(x+1, y) && in(x, y-1) && in(x, y+1) {
			continue // inside
		}
		n++
	near:
		for yy := max(0, y-1); yy <= min(h-1, y+1); yy++ {
			for xx := max(0, x-1); xx <= min(w-1, x+1); xx++ {
				if edges[yy*w+xx] != 0 {
					hit++
					break near
				}
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hit) / float64(n)
}

// colourless reports whether a token colour is a grey (black, grey or
// white): its chroma in 8-bit Lab is under 12.
func colourless(c [3]float64) bool {
	_, a, b := rgbToLab(c)
	return hypot(a-128, b-128) < 12
}

// rgbToLab converts an sRGB colour (0..255) to OpenCV's 8-bit Lab (L
// scaled to 0..255, a and b offset by 128).
func rgbToLab(c [3]float64) (l, a, b float64) {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	r, g, bl := lin(c[0]), lin(c[1]), lin(c[2])
	x := (0.412453*r + 0.357580*g + 0.180423*bl) / 0.950456
	y := 0.212671*r + 0.715160*g + 0.072169*bl
	z := (0.019334*r + 0.119193*g + 0.950227*bl) / 1.088754
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	L := 116*f(y) - 16
	if y <= 0.008856 {
		L = 903.3 * y
	}
	return L * 255 / 100, 500*(f(x)-f(y)) + 128, 200*(f(y)-f(z)) + 128
}

// fitsKind reports whether a measured region has the shape and size of
// catalogue entry k.
func (d *Detector) fitsKind(s *tokenShape, k TokenKind) bool {
	if s.shape != k.Shape && !(s.shape == "compact" && k.Shape != "long") {
		return false
	}
	if d.plane.cal == nil {
		return true
	}
	return math.Abs(s.length-k.Length) <= tokenSizeTolerance*k.Length+0.15 &&
		math.Abs(s.width-k.Width) <= tokenSizeTolerance*k.Width+0.15
}

// tokenAreaRange is the range of a token's area in detection pixels,
// with room for its printed marks and for perspective.
func (d *Detector) tokenAreaRange(k TokenKind) (float64, float64) {
	pl := d.plane
	if pl.cal == nil {
		// Without a calibration sizes are unknown: tokens are small.
		return 12, float64(pl.w*pl.h) / 400
	}
	a := k.Length * k.Width
	if k.Shape == "round" {
		a *= math.Pi / 4
	}
	px2 := pl.pixel * pl.pixel
	return 0.35 * a / px2, 2.0 * a / px2
}

// measureToken reads a region's centre, sides and fill: the sides are
// those of the smallest rectangle around it (rotating calipers over its
// convex hull), the fill its area over that rectangle's. It reports false
// for a region of no token's shape: one that fills less than
// tokenSolidityLeast of its hull (a chit is convex; a crossing of lines,
// an arc or a ring is not), or round but filling less than
// tokenRoundFillLeast of its rectangle.
func (d *Detector) measureToken(s *tokenShape, px []pt) bool {
	pl := d.plane
	var mx, my float64
	// The hull of a region is the hull of its pixels' outer corners; only
	// the first and last pixel of each row can be on it.
	corners := make([]pt, 0, 64)
	for i, p := range px {
		mx += p.X
		my += p.Y
		first := i == 0 || px[i-1].Y != p.Y
		last := i == len(px)-1 || px[i+1].Y != p.Y
		if first || last {
			corners = append(corners, pt{p.X - 0.5, p.Y - 0.5}, pt{p.X + 0.5, p.Y - 0.5}, pt{p.X + 0.5, p.Y + 0.5}, pt{p.X - 0.5, p.Y + 0.5})
		}
	}
	mx /= float64(len(px))
	my /= float64(len(px))
	hull := convexHull(corners)
	if len(hull) < 3 {
		return false
	}
	if float64(len(px)) < tokenSolidityLeast*polygonArea(hull) {
		return false
	}
	l0, l1, ax := minAreaRect(hull)
	s.fill = float64(len(px)) / (l0 * l1)
	s.u, s.v = pl.full(mx, my)
	c, ok := pl.toWork(s.u, s.v, 0)
	if !ok {
		return false
	}
	// Sizes to the working plane through the mapping at the centre.
	e, ok1 := pl.toWork(s.u+ax.X*pl.scale, s.v+ax.Y*pl.scale, 0)
	f, ok2 := pl.toWork(s.u-ax.Y*pl.scale, s.v+ax.X*pl.scale, 0)
	if !ok1 || !ok2 {
		return false
	}
	s.centre = c
	s.length, s.width = l0*e.sub(c).len(), l1*f.sub(c).len()
	s.axis = e.sub(c).scale(1 / e.sub(c).len())
	// A blurred square chit of 15 pixels has round corners: fill tells a
	// square from a disc only where it is clear.
	aspect := s.length / max(s.width, 1e-9)
	switch {
	case aspect >= 1.8 && s.fill > 0.55:
		s.shape = "long"
	case aspect < 1.4 && s.fill >= 0.9:
		s.shape = "square"
	case aspect < 1.4 && s.fill < 0.7 && s.fill >= tokenRoundFillLeast:
		s.shape = "round"
	case aspect < 1.4 && s.fill >= 0.6:
		s.shape = "compact" // round or square
	default:
		return false
	}
	return true
}

// Shapes of a measured token: the least share of its convex hull it
// fills, and of its rectangle a round one fills (a disc fills pi/4 of its
// square; small and blurred, down to about 0.6).
const (
	tokenSolidityLeast  = 0.7
	tokenRoundFillLeast = 0.55
)

// polygonArea is the area of a simple polygon (the shoelace formula).
func polygonArea(poly []pt) float64 {
	a := 0.0
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		a += p.X*q.Y - p.Y*q.X
	}
	return math.Abs(a) / 2
}

// convexHull is Andrew's monotone chain.
func convexHull(pts []pt) []pt {
	p := slices.Clone(pts)
	slices.SortFunc(p, func(a, b pt) int {
		if a.X != b.X {
			return int(math.Copysign(1, a.X-b.X))
		}
		return int(math.Copysign(1, a.Y-b.Y))
	})
	p = slices.Compact(p)
	if len(p) < 3 {
		return p
	}
	var h []pt
	for pass := range 2 {
		start := len(h)
		for _, q := range p {
			for len(h) >= start+2 && h[len(h)-1].sub(h[len(h)-2]).cross(q.sub(h[len(h)-2])) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
		if pass == 0 {
			slices.Reverse(p)
		}
	}
	return h
}

// minAreaRect returns the long and short sides of the smallest rectangle
// around a convex hull, and the unit vector of its long side.
func minAreaRect(h []pt) (long, short float64, axis pt) {
	best := math.Inf(1)
	for i := range h {
		e := h[(i+1)%len(h)].sub(h[i])
		l := e.len()
		if l == 0 {
			continue
		}
		u := e.scale(1 / l)
		n := pt{-u.Y, u.X}
		minA, maxA, minB, maxB := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, q := range h {
			a, b := q.dot(u), q.dot(n)
			minA, maxA = min(minA, a), max(maxA, a)
			minB, maxB = min(minB, b), max(maxB, b)
		}
		w, hh := maxA-minA, maxB-minB
		if w*hh < best {
			best = w * hh
			if w >= hh {
				long, short, axis = w, hh, u
			} else {
				long, short, axis = hh, w, n
			}
		}
	}
	return long, short, axis
}

// tokenModel turns a candidate into a models.Token, placed at the height
// of the disk it lies on.
func (d *Detector) tokenModel(s *tokenShape, fits []diskFit, n int) models.Token {
	pl := d.plane
	t := models.Token{ID: fmt.Sprintf("t%d", n+1), Kind: s.kind}
	c := s.centre
	if pl.cal != nil {
		h := 0.0
		for _, f := range fits {
			if f.c.dist(c) < 0 {
				h = max(h, f.height)
			}
		}
		if q, ok := pl.toWork(s.u, s.v, h+tokenThickness); ok {
			c = q
		}
	}
	r := hypot(s.length, s.width) / 2
	if s.shape == "round" {
		r = (s.length + s.width) / 4
	}
	if pl.cal == nil {
		t.X, t.Y, t.R = models.Centimetres(round3(c.X)), models.Centimetres(round3(c.Y)), models.Centimetres(round3(r))
		t.Pixel = &models.ImageCircle{PX: round3(s.u), PY: round3(s.v), PR: round3(r)}
		return t
	}
	t.X, t.Y, t.R = models.Centimetres(round3(c.X)), models.Centimetres(round3(c.Y)), models.Centimetres(round3(r))
	if s.shape != "round" {
		n := pt{-s.axis.Y, s.axis.X}
		for _, sgn := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
			q := c.add(s.axis.scale(sgn[0] * s.length / 2)).add(n.scale(sgn[1] * s.width / 2))
			t.Poly = append(t.Poly, models.TablePoint{X: models.Centimetres(round3(q.X)), Y: models.Centimetres(round3(q.Y))})
		}
	}
	t.Pixel = &models.ImageCircle{PX: round3(s.u), PY: round3(s.v), PR: round3(r / pl.pixel * pl.scale)}
	return t
}

// tokenThickness is the thickness of a token, cm.
const tokenThickness = 0.15

// dedupeTokens keeps one candidate per token: regions of one chit split
// by its print, or nested, have centres closer than half its width.
func dedupeTokens(s []*tokenShape) []*tokenShape {
	slices.SortFunc(s, func(a, b *tokenShape) int { return b.pixels - a.pixels })
	var out []*tokenShape
	for _, t := range s {
		dup := false
		for _, k := range out {
			if t.centre.sub(k.centre).len() < 0.5*k.width {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

// tokenTouches fills each token's touches from the geometry of the layout.
func tokenTouches(l *models.Layout) {
	t := engine.NewTable(*l)
	for k := range l.Tokens {
		l.Tokens[k].Touches = t.IDs(t.Touches(k))
	}
}
