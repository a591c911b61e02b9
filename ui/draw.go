package ui

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// pen draws anti-aliased shapes onto an RGBA image, blending colours by
// coverage. Coordinates are pixels of the image frame (u right, v down).
type pen struct {
	img *image.RGBA
}

// newPen copies src into a new RGBA image to draw on.
func newPen(src image.Image) pen {
	b := src.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(img, img.Bounds(), src, b.Min, draw.Src)
	return pen{img}
}

// blend mixes c into pixel (x, y) with the given coverage in [0, 1].
func (p pen) blend(x, y int, c color.NRGBA, cover float64) {
	if cover <= 0 || !(image.Point{x, y}.In(p.img.Rect)) {
		return
	}
	a := math.Min(cover, 1) * float64(c.A) / 255
	i := p.img.PixOffset(x, y)
	px := p.img.Pix[i : i+4 : i+4]
	px[0] = uint8(float64(px[0])*(1-a) + float64(c.R)*a + 0.5)
	px[1] = uint8(float64(px[1])*(1-a) + float64(c.G)*a + 0.5)
	px[2] = uint8(float64(px[2])*(1-a) + float64(c.B)*a + 0.5)
	px[3] = uint8(math.Min(255, float64(px[3])+(255-float64(px[3]))*a+0.5))
}

// box returns the pixel box around a centre and a reach, clipped.
func (p pen) box(cu, cv, reach float64) image.Rectangle {
	r := image.Rect(int(math.Floor(cu-reach)), int(math.Floor(cv-reach)),
		int(math.Ceil(cu+reach))+1, int(math.Ceil(cv+reach))+1)
	return r.Intersect(p.img.Rect)
}

// disc fills a circle of radius r centred at (cu, cv).
func (p pen) disc(cu, cv, r float64, c color.NRGBA) {
	b := p.box(cu, cv, r+1)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-cu, float64(y)+0.5-cv)
			p.blend(x, y, c, r+0.5-d)
		}
	}
}

// ring strokes a circle of radius r with a line w pixels wide.
func (p pen) ring(cu, cv, r, w float64, c color.NRGBA) {
	p.annulus(cu, cv, r, w, func(x, y int, cover float64) { p.blend(x, y, c, cover) })
}

// dashedRing strokes a circle with dashes about dash pixels long.
func (p pen) dashedRing(cu, cv, r, w, dash float64, c color.NRGBA) {
	n := math.Max(8, math.Round(2*math.Pi*r/dash/2)*2)
	p.annulus(cu, cv, r, w, func(x, y int, cover float64) {
		a := math.Atan2(float64(y)+0.5-cv, float64(x)+0.5-cu) + math.Pi
		if int(a/(2*math.Pi)*n)%2 == 0 {
			p.blend(x, y, c, cover)
		}
	})
}

// annulus calls plot with the coverage of every pixel of a ring of radius
// r and width w, visiting only the pixels near the ring.
func (p pen) annulus(cu, cv, r, w float64, plot func(x, y int, cover float64)) {
	rOut, rIn := r+w/2+1, math.Max(0, r-w/2-1)
	b := p.box(cu, cv, rOut)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		dy := float64(y) + 0.5 - cv
		if math.Abs(dy) > rOut {
			continue
		}
		xo := math.Sqrt(rOut*rOut - dy*dy)
		xi := 0.0
		if math.Abs(dy) < rIn {
			xi = math.Sqrt(rIn*rIn - dy*dy)
		}
		spans := [][2]float64{{cu - xo, cu - xi}, {cu + xi, cu + xo}}
		if xi == 0 {
			spans = [][2]float64{{cu - xo, cu + xo}}
		}
		for _, span := range spans {
			x0, x1 := max(b.Min.X, int(math.Floor(span[0]))-1), min(b.Max.X, int(math.Ceil(span[1]))+1)
			for x := x0; x < x1; x++ {
				d := math.Hypot(float64(x)+0.5-cu, dy)
				if cover := w/2 + 0.5 - math.Abs(d-r); cover > 0 {
					plot(x, y, cover)
				}
			}
		}
	}
}

// line strokes a segment w pixels wide.
func (p pen) line(a, b Pixel, w float64, c color.NRGBA) {
	box := image.Rect(int(math.Min(a.U, b.U)-w-1), int(math.Min(a.V, b.V)-w-1),
		int(math.Max(a.U, b.U)+w+2), int(math.Max(a.V, b.V)+w+2)).Intersect(p.img.Rect)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			d := segDist(Pixel{float64(x) + 0.5, float64(y) + 0.5}, a, b)
			p.blend(x, y, c, w/2+0.5-d)
		}
	}
}

// arrow strokes a segment from a to b with a filled head at b.
func (p pen) arrow(a, b Pixel, w float64, c color.NRGBA) {
	du, dv := b.U-a.U, b.V-a.V
	n := math.Hypot(du, dv)
	if n < 1 {
		return
	}
	du, dv = du/n, dv/n
	head := math.Min(4*w+6, n/2)
	base := Pixel{b.U - du*head, b.V - dv*head}
	p.line(a, base, w, c)
	half := head * 0.55
	l := Pixel{base.U - dv*half, base.V + du*half}
	r := Pixel{base.U + dv*half, base.V - du*half}
	p.triangle(b, l, r, c)
}

// triangle fills a triangle.
func (p pen) triangle(a, b, c Pixel, col color.NRGBA) {
	box := image.Rect(int(min(a.U, b.U, c.U))-1, int(min(a.V, b.V, c.V))-1,
		int(max(a.U, b.U, c.U))+2, int(max(a.V, b.V, c.V))+2).Intersect(p.img.Rect)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			q := Pixel{float64(x) + 0.5, float64(y) + 0.5}
			if inTriangle(q, a, b, c) {
				p.blend(x, y, col, 1)
				continue
			}
			d := min(segDist(q, a, b), segDist(q, b, c), segDist(q, c, a))
			p.blend(x, y, col, 0.5-d)
		}
	}
}

// rect fills a rectangle.
func (p pen) rect(r image.Rectangle, c color.NRGBA) {
	r = r.Intersect(p.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p.blend(x, y, c, 1)
		}
	}
}

// labelBox returns the box label would fill for text centred on (cu, cv).
func labelBox(cu, cv float64, text string, size float64) image.Rectangle {
	face := labelFace(size)
	textMu.Lock()
	w := font.MeasureString(face, text).Ceil()
	m := face.Metrics()
	textMu.Unlock()
	h := (m.Ascent + m.Descent).Ceil()
	pad := int(math.Max(2, size/5))
	x0, y0 := int(cu)-w/2, int(cv)-h/2
	return image.Rect(x0-pad, y0-pad/2, x0+w+pad, y0+h+pad/2)
}

// label writes text centred on (cu, cv) on a translucent box; size is the
// font height in pixels. It returns the box it used.
func (p pen) label(cu, cv float64, text string, size float64, fg, bg color.NRGBA) image.Rectangle {
	face := labelFace(size)
	textMu.Lock()
	defer textMu.Unlock()
	d := font.Drawer{Dst: p.img, Src: image.NewUniform(fg), Face: face}
	w := d.MeasureString(text).Ceil()
	m := face.Metrics()
	h := (m.Ascent + m.Descent).Ceil()
	pad := int(math.Max(2, size/5))
	x0, y0 := int(cu)-w/2, int(cv)-h/2
	box := image.Rect(x0-pad, y0-pad/2, x0+w+pad, y0+h+pad/2)
	p.rect(box, bg)
	d.Dot = fixed.P(x0, y0+m.Ascent.Ceil())
	d.DrawString(text)
	return box
}

var (
	faceMu sync.Mutex
	faces  = map[int]font.Face{}
	// textMu serialises text drawing: a font.Face is not safe for
	// concurrent use.
	textMu sync.Mutex
)

// labelFace returns the bold Go font at a pixel size, cached.
func labelFace(size float64) font.Face {
	faceMu.Lock()
	defer faceMu.Unlock()
	k := int(math.Round(size))
	if f, ok := faces[k]; ok {
		return f
	}
	ft, err := opentype.Parse(gobold.TTF)
	if err != nil {
		panic("ui: the embedded Go Bold font does not parse: " + err.Error())
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: float64(k), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic("ui: the embedded Go Bold font gives no face: " + err.Error())
	}
	faces[k] = f
	return f
}

func segDist(q, a, b Pixel) float64 {
	du, dv := b.U-a.U, b.V-a.V
	l2 := du*du + dv*dv
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((q.U-a.U)*du+(q.V-a.V)*dv)/l2))
	}
	return math.Hypot(q.U-a.U-t*du, q.V-a.V-t*dv)
}

func inTriangle(q, a, b, c Pixel) bool {
	s1 := cross(a, b, q)
	s2 := cross(b, c, q)
	s3 := cross(c, a, q)
	return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
}

func cross(a, b, q Pixel) float64 { return (b.U-a.U)*(q.V-a.V) - (b.V-a.V)*(q.U-a.U) }
