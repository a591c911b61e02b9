package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"tableref/engine"
	"tableref/models"
)

// Overlay colours.
var (
	engageColour   = color.NRGBA{0xff, 0xd0, 0x20, 0xff}
	outlineShadow  = color.NRGBA{0, 0, 0, 0xa0}
	embattleColour = color.NRGBA{0xff, 0x6a, 0x00, 0xff}
	hitColour      = color.NRGBA{0xff, 0x20, 0x40, 0xff}
	missColour     = color.NRGBA{0xc8, 0xc8, 0xc8, 0xc0}
	selectColour   = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	damageColour   = color.NRGBA{0xd0, 0x10, 0x10, 0xf0}
	woundColour    = color.NRGBA{0x80, 0x10, 0xa0, 0xf0}
	pendingColour  = color.NRGBA{0xff, 0x9c, 0x00, 0xf0}
	labelBg        = color.NRGBA{0, 0, 0, 0xa8}
	white          = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	// bandColours colour the range rings and distances by band: inside the
	// first band, inside the second, beyond; tooCloseColour marks a
	// distance within the uncertainty of a band edge.
	bandColours    = []color.NRGBA{{0x50, 0xff, 0x80, 0xff}, {0xff, 0xe0, 0x40, 0xff}, {0xff, 0x90, 0x30, 0xff}}
	beyondColour   = color.NRGBA{0xb0, 0xb0, 0xb0, 0xff}
	tooCloseColour = color.NRGBA{0xff, 0x40, 0xff, 0xff}
)

// Counter is what the overlay shows of a disk's state: damage and wounds
// confirmed in the tracker, and whether a proposal awaits confirmation.
type Counter struct {
	Damage, Wounds int
	// Pending is set when a ruling proposes a change not yet confirmed;
	// Proposed is then the tally it proposes.
	Pending  bool
	Proposed Tally
}

// Overlay is everything drawn over a frame image.
type Overlay struct {
	// Layout is the frame's layout after corrections; its disks carry
	// pixel circles (else the table is fitted onto the image).
	Layout models.Layout
	// Report is the latest ruling, nil when none; its ids are looked up
	// in Layout and missing ones skipped.
	Report *engine.Report
	// Selected is the id of the selected disk, "" for none.
	Selected    string
	Bands       []models.Centimetres
	Uncertainty models.Centimetres
	Palette     Palette
	Counters    map[string]Counter
}

// geom is the overlay's view of the layout in pixels.
type geom struct {
	m     Affine
	disks map[string]models.ImageCircle
	font  float64
}

// DrawOverlay returns a copy of img with the overlay drawn on it.
func DrawOverlay(img image.Image, o Overlay) *image.RGBA {
	p := newPen(img)
	g := newGeom(o.Layout, img.Bounds())
	if o.Palette == nil {
		o.Palette = NewPalette(o.Layout)
	}
	if o.Selected != "" {
		drawRanges(p, g, o)
	}
	drawOutlines(p, g, o)
	if o.Report != nil {
		drawHits(p, g, o)
		drawEngagements(p, g, o)
	}
	drawLabels(p, g, o)
	return p.img
}

func newGeom(l models.Layout, b image.Rectangle) geom {
	m, err := FitAffine(l)
	if err != nil {
		m = FitView([]models.Layout{l}, b.Dx(), b.Dy()).Affine()
	}
	g := geom{m: m, disks: map[string]models.ImageCircle{}, font: math.Max(12, float64(b.Dy())/60)}
	for _, d := range l.Disks {
		if d.Pixel != nil {
			g.disks[d.ID] = *d.Pixel
			continue
		}
		c := m.Apply(d.Centre())
		g.disks[d.ID] = models.ImageCircle{PX: c.U, PY: c.V, PR: float64(d.R) * m.Scale()}
	}
	return g
}

func (g geom) token(t models.Token) models.ImageCircle {
	if t.Pixel != nil {
		return *t.Pixel
	}
	c := g.m.Apply(models.TablePoint{X: t.X, Y: t.Y})
	return models.ImageCircle{PX: c.U, PY: c.V, PR: float64(t.R) * g.m.Scale()}
}

// drawOutlines strokes every creature disk in its owner's colour, and
// marks embattled disks with an orange dashed ring.
func drawOutlines(p pen, g geom, o Overlay) {
	embattled := map[string]bool{}
	if o.Report != nil {
		for _, id := range o.Report.Embattled {
			embattled[id] = true
		}
	}
	w := math.Max(2.5, g.font/5)
	for _, d := range o.Layout.Disks {
		c := g.disks[d.ID]
		col := o.Palette.Of(d.Owner)
		if d.IsTerrain() {
			col = color.NRGBA{0xe0, 0xe0, 0xc0, 0x90}
		}
		p.ring(c.PX, c.PY, c.PR+w/2+1, w+2, outlineShadow)
		p.ring(c.PX, c.PY, c.PR+w/2+1, w, col)
		if embattled[d.ID] {
			p.dashedRing(c.PX, c.PY, c.PR+2*w+3, w, 3*w, embattleColour)
		}
		if d.ID == o.Selected {
			p.ring(c.PX, c.PY, c.PR+3*w+5, w*0.8, selectColour)
		}
	}
}

// drawEngagements draws an arrow from each attacker to each defender.
func drawEngagements(p pen, g geom, o Overlay) {
	w := math.Max(3, g.font/4)
	for _, e := range o.Report.Engagements {
		for _, a := range e.Attackers {
			for _, d := range e.Defenders {
				ca, ok1 := g.disks[a]
				cd, ok2 := g.disks[d]
				if !ok1 || !ok2 {
					continue
				}
				from, to := edgePoints(ca, cd)
				p.arrow(from, to, w+2, outlineShadow)
				p.arrow(from, to, w, engageColour)
			}
		}
	}
}

// edgePoints returns the segment joining two circles' centres, shortened
// to start inside the first at half its radius and end on the second's
// rim, so that an arrow between overlapping disks stays visible.
func edgePoints(a, b models.ImageCircle) (Pixel, Pixel) {
	du, dv := b.PX-a.PX, b.PY-a.PY
	n := math.Hypot(du, dv)
	if n < 1e-9 {
		return Pixel{a.PX, a.PY}, Pixel{b.PX, b.PY}
	}
	du, dv = du/n, dv/n
	from := Pixel{a.PX + du*a.PR*0.3, a.PY + dv*a.PR*0.3}
	end := math.Max(n-b.PR*0.6, n*0.55)
	to := Pixel{a.PX + du*end, a.PY + dv*end}
	return from, to
}

// drawHits rings every projectile: red with a line to each disk it hits,
// grey when it misses.
func drawHits(p pen, g geom, o Overlay) {
	toks := map[string]models.Token{}
	for _, t := range o.Layout.Tokens {
		toks[t.ID] = t
	}
	w := math.Max(2, g.font/6)
	for _, h := range o.Report.Hits {
		t, ok := toks[h.Token]
		if !ok {
			continue
		}
		c := g.token(t)
		if len(h.Disks) == 0 {
			p.ring(c.PX, c.PY, c.PR+w, w, missColour)
			continue
		}
		for _, id := range h.Disks {
			if d, ok := g.disks[id]; ok {
				p.line(Pixel{c.PX, c.PY}, Pixel{d.PX, d.PY}, w*0.7, hitColour)
			}
		}
		p.ring(c.PX, c.PY, c.PR+w, w, hitColour)
	}
}

// drawRanges draws the range rings of the selected disk and the distance
// to every other disk, coloured by band.
func drawRanges(p pen, g geom, o Overlay) {
	t := engine.NewTable(o.Layout)
	sel, ok := t.Index(o.Selected)
	if !ok {
		return
	}
	c := g.disks[o.Selected]
	s := g.m.Scale()
	w := math.Max(2, g.font/6)
	for i, b := range o.Bands {
		r := c.PR + float64(b)*s
		if o.Uncertainty > 0 {
			p.ring(c.PX, c.PY, r, math.Max(1, 2*float64(o.Uncertainty)*s), withAlpha(bandColour(i), 0x50))
		}
		p.dashedRing(c.PX, c.PY, r, w, 4*w, bandColour(i))
		p.label(c.PX, c.PY-r-g.font*0.7, fmt.Sprintf("%g cm", float64(b)), g.font*0.85, bandColour(i), labelBg)
	}
	for _, row := range Ranges(t, sel, o.Bands, o.Uncertainty) {
		d := g.disks[row.ID]
		col := rowColour(row, o.Bands)
		from, to := rimToRim(c, d)
		p.line(from, to, 1.5, withAlpha(col, 0x90))
		text := fmt.Sprintf("%.1f", float64(row.Edge))
		if row.TooClose {
			text = "≈" + text
		}
		mid := Pixel{(from.U + to.U) / 2, (from.V + to.V) / 2}
		p.label(mid.U, mid.V, text, g.font*0.8, col, labelBg)
	}
}

// rimToRim returns the segment between the facing rims of two circles.
func rimToRim(a, b models.ImageCircle) (Pixel, Pixel) {
	du, dv := b.PX-a.PX, b.PY-a.PY
	n := math.Hypot(du, dv)
	if n < 1e-9 {
		return Pixel{a.PX, a.PY}, Pixel{b.PX, b.PY}
	}
	du, dv = du/n, dv/n
	return Pixel{a.PX + du*a.PR, a.PY + dv*a.PR}, Pixel{b.PX - du*b.PR, b.PY - dv*b.PR}
}

func bandColour(i int) color.NRGBA {
	if i < len(bandColours) {
		return bandColours[i]
	}
	return beyondColour
}

// rowColour is the colour of a distance: its band's, or the too-close one.
func rowColour(r RangeRow, bands []models.Centimetres) color.NRGBA {
	if r.TooClose {
		return tooCloseColour
	}
	if r.Band >= len(bands) {
		return beyondColour
	}
	return bandColour(r.Band)
}

func withAlpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

// drawLabels writes each creature's name under it (or above it, or beside
// it, where an earlier name already lies below) and its counters.
func drawLabels(p pen, g geom, o Overlay) {
	var placed []image.Rectangle
	for _, d := range o.Layout.Disks {
		c := g.disks[d.ID]
		name := d.Name
		if name == "" {
			name = d.ID
		}
		if d.IsTerrain() {
			p.label(c.PX, c.PY, name, g.font*0.8, color.NRGBA{0xff, 0xff, 0xff, 0xc0}, color.NRGBA{0, 0, 0, 0x50})
			continue
		}
		at := placeLabel(c, name, g.font, placed)
		placed = append(placed, p.label(at.U, at.V, name, g.font, white, labelBg))
		drawCounters(p, g, c, o.Counters[d.ID])
	}
}

// drawCounters draws the damage (red) and wound (purple) badges at the
// disk's upper right, and an orange ring on them when a proposal awaits.
func drawCounters(p pen, g geom, c models.ImageCircle, k Counter) {
	r := g.font * 0.75
	u := c.PX + c.PR*0.75
	v := c.PY - c.PR*0.75
	if k.Damage > 0 {
		p.disc(u, v, r, damageColour)
		p.label(u, v, fmt.Sprint(k.Damage), g.font*0.85, white, color.NRGBA{})
		u += 2.2 * r
	}
	if k.Wounds > 0 {
		p.disc(u, v, r, woundColour)
		p.label(u, v, fmt.Sprint(k.Wounds), g.font*0.85, white, color.NRGBA{})
		u += 2.2 * r
	}
	if k.Pending {
		text := fmt.Sprintf("→%d", k.Proposed.Damage)
		if k.Proposed.Casualty {
			text = "→†"
		}
		p.label(u+r*0.6, v, text, g.font*0.85, color.NRGBA{0x20, 0x10, 0, 0xff}, pendingColour)
	}
}

// placeLabel picks where a disk's name goes: below the disk, else above,
// else to the right, else to the left, avoiding the boxes already placed;
// below when every place is taken.
func placeLabel(c models.ImageCircle, name string, size float64, placed []image.Rectangle) Pixel {
	w := float64(labelBox(0, 0, name, size).Dx())
	candidates := []Pixel{
		{c.PX, c.PY + c.PR + size*0.9},
		{c.PX, c.PY - c.PR - size*0.9},
		{c.PX + c.PR + w/2 + 4, c.PY},
		{c.PX - c.PR - w/2 - 4, c.PY},
	}
	for _, at := range candidates {
		box := labelBox(at.U, at.V, name, size)
		free := true
		for _, q := range placed {
			if box.Overlaps(q) {
				free = false
				break
			}
		}
		if free {
			return at
		}
	}
	return candidates[0]
}
