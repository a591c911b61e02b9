package ui

import (
	"errors"
	"image"
	"math"

	"tableref/models"
)

// Affine maps the table frame (cm) to the image frame (pixels):
//
//	u = A*x + B*y + C
//	v = D*x + E*y + F
//
// with u to the right and v down from the image's top-left corner.
type Affine struct {
	A, B, C, D, E, F float64
}

// Pixel is a point in the image frame, in pixels (u right, v down).
type Pixel struct{ U, V float64 }

// Apply maps a table point to the image.
func (m Affine) Apply(p models.TablePoint) Pixel {
	x, y := float64(p.X), float64(p.Y)
	return Pixel{m.A*x + m.B*y + m.C, m.D*x + m.E*y + m.F}
}

// Scale is the mean number of pixels per centimetre (the square root of
// the determinant), used to draw lengths such as range rings.
func (m Affine) Scale() float64 { return math.Sqrt(math.Abs(m.A*m.E - m.B*m.D)) }

// Invert maps an image point back to the table frame. It reports false
// when the map is degenerate.
func (m Affine) Invert(p Pixel) (models.TablePoint, bool) {
	det := m.A*m.E - m.B*m.D
	if math.Abs(det) < 1e-12 {
		return models.TablePoint{}, false
	}
	u, v := p.U-m.C, p.V-m.F
	x := (m.E*u - m.B*v) / det
	y := (-m.D*u + m.A*v) / det
	return models.TablePoint{X: models.Centimetres(x), Y: models.Centimetres(y)}, true
}

// View is the scale-and-shift Affine of a top-down rendering: Scale pixels
// per cm, table point (0,0) at pixel (OffU, OffV), in an image of Size.
type View struct {
	PxPerCm    float64
	OffU, OffV float64
	Size       image.Point
}

// Affine returns the view's map from table to image.
func (v View) Affine() Affine {
	return Affine{A: v.PxPerCm, C: v.OffU, E: v.PxPerCm, F: v.OffV}
}

// FitView returns the view that shows every layout whole in an image of
// at most w by h pixels: the table when its size is given, else the box
// around every disk and token with a margin of 5 cm.
func FitView(ls []models.Layout, w, h int) View {
	x0, y0, x1, y1 := bounds(ls)
	cw, ch := x1-x0, y1-y0
	s := math.Min(float64(w)/cw, float64(h)/ch)
	size := image.Pt(int(math.Ceil(cw*s)), int(math.Ceil(ch*s)))
	return View{PxPerCm: s, OffU: -x0 * s, OffV: -y0 * s, Size: size}
}

func bounds(ls []models.Layout) (x0, y0, x1, y1 float64) {
	for _, l := range ls {
		if l.Table != nil && l.Table.Width > 0 && l.Table.Height > 0 {
			return 0, 0, float64(l.Table.Width), float64(l.Table.Height)
		}
	}
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	grow := func(x, y, r models.Centimetres) {
		x0, y0 = math.Min(x0, float64(x-r)), math.Min(y0, float64(y-r))
		x1, y1 = math.Max(x1, float64(x+r)), math.Max(y1, float64(y+r))
	}
	for _, l := range ls {
		for _, d := range l.Disks {
			grow(d.X, d.Y, d.R)
		}
		for _, t := range l.Tokens {
			grow(t.X, t.Y, t.R)
		}
	}
	if x0 > x1 {
		return 0, 0, 120, 90
	}
	const margin = 5
	return x0 - margin, y0 - margin, x1 + margin, y1 + margin
}

// errNoFit is returned by FitAffine when too few disks carry pixels.
var errNoFit = errors.New("too few disks with pixel positions to map the table onto the image")

// FitAffine fits the map from table to image by least squares on the disks
// that carry both positions (at least three not on one line); with one or
// two such disks it fits a scale and shift from the radii.
func FitAffine(l models.Layout) (Affine, error) {
	var src []models.Disk
	for _, d := range l.Disks {
		if d.Pixel != nil {
			src = append(src, d)
		}
	}
	if m, ok := fitFull(src); ok {
		return m, nil
	}
	if len(src) == 0 || src[0].R <= 0 {
		return Affine{}, errNoFit
	}
	d := src[0]
	s := d.Pixel.PR / float64(d.R)
	return Affine{A: s, C: d.Pixel.PX - s*float64(d.X), E: s, F: d.Pixel.PY - s*float64(d.Y)}, nil
}

// fitFull solves the two 3x3 normal systems of the affine fit.
func fitFull(ds []models.Disk) (Affine, bool) {
	if len(ds) < 3 {
		return Affine{}, false
	}
	var n [3][3]float64
	var bu, bv [3]float64
	for _, d := range ds {
		row := [3]float64{float64(d.X), float64(d.Y), 1}
		for i := range 3 {
			for j := range 3 {
				n[i][j] += row[i] * row[j]
			}
			bu[i] += row[i] * d.Pixel.PX
			bv[i] += row[i] * d.Pixel.PY
		}
	}
	a, ok1 := solve3(n, bu)
	b, ok2 := solve3(n, bv)
	if !ok1 || !ok2 {
		return Affine{}, false
	}
	return Affine{a[0], a[1], a[2], b[0], b[1], b[2]}, true
}

// solve3 solves m x = b by Cramer's rule; false when m is near singular.
func solve3(m [3][3]float64, b [3]float64) ([3]float64, bool) {
	det := det3(m)
	if math.Abs(det) < 1e-9 {
		return [3]float64{}, false
	}
	var x [3]float64
	for c := range 3 {
		mc := m
		for r := range 3 {
			mc[r][c] = b[r]
		}
		x[c] = det3(mc) / det
	}
	return x, true
}

func det3(m [3][3]float64) float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}
