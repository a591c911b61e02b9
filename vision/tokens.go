package vision

import (
	"fmt"
	"math"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// TokenKind is one entry of the token catalogue: a token of this kind has
// this shape, colour and size. The first entry that matches a token names
// it; a token that matches none is "unknown".
type TokenKind struct {
	Kind string
	// Shape is "round", "square", "elongated" or "any".
	Shape string
	// Colour is a colour class (red, gold, green, blue, purple, black,
	// white, grey) or "any".
	Colour string
	// MinCm, MaxCm bound the token's longest side (its diameter when round).
	MinCm, MaxCm float64
}

// DefaultTokenCatalogue describes the Diskwars tokens: elongated arrow
// and bolt chits, round fireball and boulder chits, and square markers.
var DefaultTokenCatalogue = []TokenKind{
	{Kind: "arrow", Shape: "elongated", Colour: "any", MinCm: 1.6, MaxCm: 4},
	{Kind: "bolt", Shape: "elongated", Colour: "any", MinCm: 0.8, MaxCm: 1.6},
	{Kind: "fireball", Shape: "round", Colour: "red", MinCm: 0.8, MaxCm: 2.5},
	{Kind: "fireball", Shape: "round", Colour: "gold", MinCm: 0.8, MaxCm: 2.5},
	{Kind: "boulder", Shape: "round", Colour: "grey", MinCm: 0.8, MaxCm: 2.5},
	{Kind: "boulder", Shape: "round", Colour: "black", MinCm: 0.8, MaxCm: 2.5},
	{Kind: "wound", Shape: "square", Colour: "red", MinCm: 0.8, MaxCm: 2.5},
	{Kind: "activation", Shape: "square", Colour: "any", MinCm: 0.8, MaxCm: 2.5},
}

// tokenShape is a small closed outline found in the frame.
type tokenShape struct {
	hull   []pt // convex hull, working plane
	centre pt
	long   float64 // longest side of the bounding rectangle, working units
	aspect float64 // long side over short side
	shape  string
	colour string
}

// findTokens finds the small closed outlines that are not part of a disk's
// rim: the tokens.
func (d *Detector) findTokens(chains []chain, em edgeMap, fits []diskFit, img bgrImage) []models.Token {
	pl := d.plane
	minLen, maxLen := d.tokenSizeRange(fits)
	var shapes []tokenShape
	for _, ch := range chains {
		pts := pl.chainPoints(ch)
		if len(pts) < 12 || onDiskOutline(pts, fits, 1.5*pl.pixel) {
			continue
		}
		ends := pts[0].sub(pts[len(pts)-1]).len()
		hull := convexHull(pts)
		if len(hull) < 3 {
			continue
		}
		long, short, _ := boundingRect(hull)
		if long < minLen || long > maxLen || short < 0.25*minLen {
			continue
		}
		if !ch.closed && ends > 0.35*long {
			continue
		}
		area, perim := polyArea(hull), chainLength(pts)
		if perim < 1.8*long { // an open stroke, not an outline
			continue
		}
		s := tokenShape{hull: hull, centre: centroid(hull), long: long, aspect: long / max(short, 1e-9)}
		circ := 4 * math.Pi * area / (perimeterOf(hull) * perimeterOf(hull))
		rect := area / (long * short)
		switch {
		case s.aspect >= 1.7 && rect > 0.7:
			s.shape = "elongated"
		case circ > 0.86 && s.aspect < 1.25:
			s.shape = "round"
		case rect > 0.84 && s.aspect < 1.5:
			s.shape = "square"
		default:
			continue
		}
		shapes = append(shapes, s)
	}
	shapes = dedupeTokens(shapes)
	var toks []models.Token
	for k, s := range shapes {
		s.colour = d.tokenColour(s, img)
		t := models.Token{ID: fmt.Sprintf("t%d", k+1), Kind: d.tokenKind(s)}
		c, r := enclosing(s.hull)
		u, v, _ := pl.toImage(c, 0)
		if pl.cal != nil {
			t.X, t.Y, t.R = models.Centimetres(c.X), models.Centimetres(c.Y), models.Centimetres(r)
			for _, h := range s.hull {
				t.Poly = append(t.Poly, models.TablePoint{X: models.Centimetres(round3(h.X)), Y: models.Centimetres(round3(h.Y))})
			}
			t.Pixel = &models.ImageCircle{PX: round3(u), PY: round3(v), PR: round3(r / pl.pixel * pl.scale)}
		} else {
			t.X, t.Y, t.R = models.Centimetres(u), models.Centimetres(v), models.Centimetres(r)
			t.Pixel = &models.ImageCircle{PX: round3(u), PY: round3(v), PR: round3(r)}
		}
		toks = append(toks, t)
	}
	return toks
}

// tokenSizeRange returns the smallest and largest token length in working
// units: from the catalogue with a calibration, from the disks' size
// without one.
func (d *Detector) tokenSizeRange(fits []diskFit) (float64, float64) {
	if d.plane.cal != nil {
		lo, hi := math.Inf(1), 0.0
		for _, k := range d.opt.Tokens {
			lo, hi = min(lo, k.MinCm), max(hi, k.MaxCm)
		}
		return lo, hi
	}
	var rs []float64
	for _, f := range fits {
		rs = append(rs, f.c.R)
	}
	if len(rs) == 0 {
		return 8 * d.plane.pixel, 60 * d.plane.pixel
	}
	r := median(rs)
	return 0.25 * r, 1.4 * r
}

func (d *Detector) tokenKind(s tokenShape) string {
	long := s.long
	for _, k := range d.opt.Tokens {
		if k.Shape != "any" && k.Shape != s.shape {
			continue
		}
		if k.Colour != "any" && k.Colour != s.colour {
			continue
		}
		if d.plane.cal != nil && (long < k.MinCm || long > k.MaxCm) {
			continue
		}
		return k.Kind
	}
	return models.KindUnknown
}

// tokenColour is the commonest colour class inside the token.
func (d *Detector) tokenColour(s tokenShape, img bgrImage) string {
	votes := map[string]int{}
	for _, h := range s.hull {
		for _, f := range []float64{0.3, 0.6} {
			q := s.centre.add(h.sub(s.centre).scale(f))
			u, v, ok := d.plane.toImage(q, 0)
			if !ok {
				continue
			}
			if r, g, b, ok := img.at(u, v); ok {
				votes[colourClass(r, g, b)]++
			}
		}
	}
	best, n := "unknown", 0
	for c, v := range votes {
		if v > n || (v == n && c < best) {
			best, n = c, v
		}
	}
	return best
}

// onDiskOutline reports whether most of the points lie on a disk's circle.
func onDiskOutline(pts []pt, fits []diskFit, tol float64) bool {
	on := 0
	for _, p := range pts {
		for _, f := range fits {
			if math.Abs(f.c.dist(p)) <= tol {
				on++
				break
			}
		}
	}
	return on*2 > len(pts)
}

// dedupeTokens keeps one outline per token: the largest, dropping outlines
// whose centre lies inside a larger one (the token's own print).
func dedupeTokens(s []tokenShape) []tokenShape {
	slices.SortFunc(s, func(a, b tokenShape) int { return int(math.Copysign(1, b.long-a.long)) })
	var out []tokenShape
	for _, t := range s {
		inside := false
		for _, k := range out {
			if pointInHull(t.centre, k.hull) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, t)
		}
	}
	return out
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
	p = slices.CompactFunc(p, func(a, b pt) bool { return a == b })
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

// boundingRect returns the long and short sides and the angle of the
// smallest-area rectangle around a convex hull (rotating calipers over
// its edges).
func boundingRect(h []pt) (long, short, angle float64) {
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
			long, short, angle = max(w, hh), min(w, hh), math.Atan2(u.Y, u.X)
		}
	}
	return long, short, angle
}

func polyArea(h []pt) float64 {
	var a float64
	for i := range h {
		a += h[i].cross(h[(i+1)%len(h)])
	}
	return math.Abs(a) / 2
}

func perimeterOf(h []pt) float64 {
	var p float64
	for i := range h {
		p += h[(i+1)%len(h)].sub(h[i]).len()
	}
	return p
}

func chainLength(pts []pt) float64 {
	var l float64
	for i := 1; i < len(pts); i++ {
		l += pts[i].sub(pts[i-1]).len()
	}
	return l
}

func centroid(h []pt) pt {
	var c pt
	for _, q := range h {
		c = c.add(q)
	}
	return c.scale(1 / float64(len(h)))
}

// enclosing returns the hull's centroid and the distance to its farthest
// vertex.
func enclosing(h []pt) (pt, float64) {
	c := centroid(h)
	r := 0.0
	for _, q := range h {
		r = max(r, q.sub(c).len())
	}
	return c, r
}

func pointInHull(p pt, h []pt) bool {
	sign := 0.0
	for i := range h {
		c := h[(i+1)%len(h)].sub(h[i]).cross(p.sub(h[i]))
		if c == 0 {
			continue
		}
		if sign == 0 {
			sign = math.Copysign(1, c)
		} else if math.Copysign(1, c) != sign {
			return false
		}
	}
	return true
}

// tokenTouches fills each token's touches from the geometry of the layout.
func tokenTouches(l *models.Layout) {
	t := engine.NewTable(*l)
	for k := range l.Tokens {
		l.Tokens[k].Touches = t.IDs(t.Touches(k))
	}
}
