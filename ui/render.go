package ui

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strings"

	"tableref/models"
)

// Colours of the top-down rendering and of the overlay.
var (
	feltColour   = color.NRGBA{0x2e, 0x5a, 0x3c, 0xff}
	gridColour   = color.NRGBA{0xff, 0xff, 0xff, 0x16}
	edgeColour   = color.NRGBA{0x1c, 0x3a, 0x26, 0xff}
	noOwner      = color.NRGBA{0xdd, 0xdd, 0xdd, 0xff}
	ownerPalette = []color.NRGBA{
		{0x3d, 0x8b, 0xfd, 0xff}, // blue
		{0xe8, 0x41, 0x3c, 0xff}, // red
		{0xf0, 0xb4, 0x00, 0xff}, // yellow
		{0xa3, 0x5c, 0xd6, 0xff}, // purple
		{0x1a, 0xbc, 0x9c, 0xff}, // teal
		{0xff, 0x7f, 0x0e, 0xff}, // orange
	}
	terrainColours = map[string]color.NRGBA{
		"forest":          {0x1f, 0x6b, 0x2a, 0xff},
		"lake":            {0x2d, 0x6c, 0xb5, 0xff},
		"mountain":        {0x7d, 0x74, 0x6a, 0xff},
		"ruins":           {0x8f, 0x86, 0x70, 0xff},
		"homeland":        {0xb0, 0x96, 0x5a, 0xff},
		"good-temple":     {0xe6, 0xe0, 0xc0, 0xff},
		"evil-temple":     {0x5a, 0x3a, 0x4a, 0xff},
		"scorched-valley": {0x7a, 0x3b, 0x1e, 0xff},
	}
	rimColours = map[string]color.NRGBA{
		"green": {0x2e, 0xa0, 0x43, 0xff},
		"blue":  {0x2f, 0x6f, 0xd0, 0xff},
		"black": {0x15, 0x15, 0x15, 0xff},
		"red":   {0xb0, 0x1e, 0x1e, 0xff},
	}
	tokenColours = map[string]color.NRGBA{
		"arrow":      {0xd8, 0xb0, 0x6a, 0xff},
		"bolt":       {0xa0, 0xa8, 0xb8, 0xff},
		"fireball":   {0xff, 0x6a, 0x00, 0xff},
		"boulder":    {0x80, 0x80, 0x80, 0xff},
		"damage":     {0xe0, 0x20, 0x20, 0xff},
		"wound":      {0x90, 0x10, 0x40, 0xff},
		"activation": {0xff, 0xff, 0xff, 0xff},
		"gold":       {0xff, 0xd7, 0x00, 0xff},
	}
)

// Palette gives each player a colour: the players of the layout in their
// order, then the other owners in alphabetical order.
type Palette map[string]color.NRGBA

// NewPalette assigns colours to the owners of the layouts.
func NewPalette(ls ...models.Layout) Palette {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	var rest []string
	for _, l := range ls {
		for _, p := range l.Players {
			add(p)
		}
		for _, d := range l.Disks {
			if !d.IsTerrain() && d.Owner != "" {
				rest = append(rest, d.Owner)
			}
		}
	}
	slices.Sort(rest)
	for _, n := range rest {
		add(n)
	}
	p := Palette{}
	for i, n := range names {
		p[n] = ownerPalette[i%len(ownerPalette)]
	}
	return p
}

// Of returns the colour of an owner (light grey for nobody).
func (p Palette) Of(owner string) color.NRGBA {
	if c, ok := p[owner]; ok {
		return c
	}
	return noOwner
}

// RenderLayout draws a layout top down, as a camera straight above a felt
// table would see it, without art: terrain in its colour, creatures filled
// in a pale tint of their owner's colour with their rim, tokens as small
// coloured discs, in stacking order. It returns the image and a copy of
// the layout whose disks and tokens carry their pixel circles.
func RenderLayout(l models.Layout, v View) (image.Image, models.Layout) {
	out := l.Clone()
	img := image.NewRGBA(image.Rectangle{Max: v.Size})
	p := pen{img}
	p.rect(img.Rect, edgeColour)
	m := v.Affine()
	drawFelt(p, l, m)
	pal := NewPalette(l)
	for _, i := range stackOrder(l.Disks) {
		d := &out.Disks[i]
		c := m.Apply(d.Centre())
		d.Pixel = &models.ImageCircle{PX: c.U, PY: c.V, PR: float64(d.R) * m.Scale()}
		drawDisk(p, *d, pal)
	}
	for i := range out.Tokens {
		t := &out.Tokens[i]
		c := m.Apply(models.TablePoint{X: t.X, Y: t.Y})
		t.Pixel = &models.ImageCircle{PX: c.U, PY: c.V, PR: float64(t.R) * m.Scale()}
		drawToken(p, *t)
	}
	return img, out
}

// drawFelt paints the playing surface with a 10 cm grid.
func drawFelt(p pen, l models.Layout, m Affine) {
	x0, y0, x1, y1 := bounds([]models.Layout{l})
	a := m.Apply(models.TablePoint{X: models.Centimetres(x0), Y: models.Centimetres(y0)})
	b := m.Apply(models.TablePoint{X: models.Centimetres(x1), Y: models.Centimetres(y1)})
	p.rect(image.Rect(int(a.U), int(a.V), int(math.Ceil(b.U)), int(math.Ceil(b.V))), feltColour)
	for x := math.Ceil(x0/10) * 10; x <= x1; x += 10 {
		u := m.Apply(models.TablePoint{X: models.Centimetres(x)}).U
		p.line(Pixel{u, a.V}, Pixel{u, b.V}, 1, gridColour)
	}
	for y := math.Ceil(y0/10) * 10; y <= y1; y += 10 {
		v := m.Apply(models.TablePoint{Y: models.Centimetres(y)}).V
		p.line(Pixel{a.U, v}, Pixel{b.U, v}, 1, gridColour)
	}
}

// stackOrder returns the disk indices from the lowest to the highest.
func stackOrder(ds []models.Disk) []int {
	idx := make([]int, len(ds))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ta, tb := ds[a].IsTerrain(), ds[b].IsTerrain()
		if ta != tb {
			if ta {
				return -1
			}
			return 1
		}
		return ds[a].Z - ds[b].Z
	})
	return idx
}

func drawDisk(p pen, d models.Disk, pal Palette) {
	c := d.Pixel
	shadow := color.NRGBA{0, 0, 0, 0x60}
	p.disc(c.PX+2, c.PY+3, c.PR, shadow)
	if d.IsTerrain() {
		fill, ok := terrainColours[strings.ToLower(d.Terrain)]
		if !ok {
			fill = color.NRGBA{0x6b, 0x8e, 0x4e, 0xff}
		}
		p.disc(c.PX, c.PY, c.PR, fill)
		p.ring(c.PX, c.PY, c.PR*0.8, math.Max(1, c.PR/20), color.NRGBA{0xff, 0xff, 0xff, 0x30})
		return
	}
	p.disc(c.PX, c.PY, c.PR, tint(pal.Of(d.Owner), 0.55))
	rim, ok := rimColours[strings.ToLower(d.Rim)]
	if !ok {
		rim = color.NRGBA{0x40, 0x40, 0x40, 0xff}
	}
	p.ring(c.PX, c.PY, c.PR-math.Max(1.5, c.PR/12), math.Max(2, c.PR/6), rim)
}

func drawToken(p pen, t models.Token) {
	c := t.Pixel
	fill, ok := tokenColours[strings.ToLower(t.Kind)]
	if !ok {
		fill = color.NRGBA{0xc0, 0xc0, 0xc0, 0xff}
	}
	p.disc(c.PX+1, c.PY+2, c.PR, color.NRGBA{0, 0, 0, 0x70})
	p.disc(c.PX, c.PY, c.PR, fill)
	p.ring(c.PX, c.PY, c.PR, 1.2, color.NRGBA{0x20, 0x20, 0x20, 0xc0})
	if k, ok := models.ProjectileKind(t.Kind); ok && (k == "arrow" || k == "bolt") {
		a := Pixel{c.PX - c.PR*0.7, c.PY + c.PR*0.7}
		b := Pixel{c.PX + c.PR*0.7, c.PY - c.PR*0.7}
		p.arrow(a, b, math.Max(1, c.PR/6), color.NRGBA{0x30, 0x20, 0x10, 0xff})
	}
}

// tint mixes c with white: f = 0 gives c, f = 1 white.
func tint(c color.NRGBA, f float64) color.NRGBA {
	mix := func(v uint8) uint8 { return uint8(float64(v) + (255-float64(v))*f) }
	return color.NRGBA{mix(c.R), mix(c.G), mix(c.B), c.A}
}
