package vision

import "math"

// grayImage is an 8-bit grey frame, row after row.
type grayImage struct {
	pix  []uint8
	w, h int
}

// at returns the bilinear interpolation at (x, y), and false outside.
func (g grayImage) at(x, y float64) (float64, bool) {
	if x < 0 || y < 0 || x > float64(g.w-1) || y > float64(g.h-1) {
		return 0, false
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, g.w-1), min(y0+1, g.h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	a := float64(g.pix[y0*g.w+x0])*(1-fx) + float64(g.pix[y0*g.w+x1])*fx
	b := float64(g.pix[y1*g.w+x0])*(1-fx) + float64(g.pix[y1*g.w+x1])*fx
	return a*(1-fy) + b*fy, true
}

// bgrImage is an 8-bit BGR frame, row after row.
type bgrImage struct {
	pix  []uint8
	w, h int
}

// at returns the colour of pixel (x, y) as r, g, b in 0..255, and false
// outside.
func (c bgrImage) at(x, y float64) (r, g, b float64, ok bool) {
	xi, yi := int(math.Round(x)), int(math.Round(y))
	if xi < 0 || yi < 0 || xi >= c.w || yi >= c.h {
		return 0, 0, 0, false
	}
	i := (yi*c.w + xi) * 3
	return float64(c.pix[i+2]), float64(c.pix[i+1]), float64(c.pix[i]), true
}

// bilinear returns the colour (r, g, b) interpolated at (x, y), and false
// outside the frame.
func (c bgrImage) bilinear(x, y float64) ([3]float64, bool) {
	if x < 0 || y < 0 || x > float64(c.w-1) || y > float64(c.h-1) {
		return [3]float64{}, false
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, c.w-1), min(y0+1, c.h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	// The four neighbours, three bytes each (a bounds check each).
	i00, i01 := (y0*c.w+x0)*3, (y0*c.w+x1)*3
	i10, i11 := (y1*c.w+x0)*3, (y1*c.w+x1)*3
	p00, p01 := c.pix[i00:i00+3:i00+3], c.pix[i01:i01+3:i01+3]
	p10, p11 := c.pix[i10:i10+3:i10+3], c.pix[i11:i11+3:i11+3]
	var out [3]float64
	for k := range 3 {
		ch := 2 - k // BGR to RGB
		a := float64(p00[ch])*(1-fx) + float64(p01[ch])*fx
		b := float64(p10[ch])*(1-fx) + float64(p11[ch])*fx
		out[k] = a*(1-fy) + b*fy
	}
	return out, true
}

// line fills out with the colours (r, g, b, as bilinear's) at
// (u0, v0) + i (du, dv) for each i, and reports false, out partly
// filled, when any of them lies outside the image. One test of the
// segment's ends stands for every sample's; the loop is bilinear's with
// its bounds checks hoisted.
func (c bgrImage) line(u0, v0, du, dv float64, out [][3]float64) bool {
	n := len(out)
	if n == 0 {
		return true
	}
	inside := func(x, y float64) bool { return x >= 0 && y >= 0 && x <= float64(c.w-1) && y <= float64(c.h-1) }
	if c.w < 2 || c.h < 2 || !inside(u0, v0) || !inside(u0+du*float64(n-1), v0+dv*float64(n-1)) {
		for i := range out {
			v, ok := c.bilinear(u0+du*float64(i), v0+dv*float64(i))
			if !ok {
				return false
			}
			out[i] = v
		}
		return true
	}
	stride := 3 * c.w
	for i := range out {
		x, y := u0+du*float64(i), v0+dv*float64(i)
		x0, y0 := int(x), int(y)
		// On the last column or row, the pixel before it with a weight
		// of nothing: the same colour as bilinear's.
		x0, y0 = min(x0, c.w-2), min(y0, c.h-2)
		fx, fy := x-float64(x0), y-float64(y0)
		j := y0*stride + 3*x0
		p := c.pix[j : j+6 : j+6]
		q := c.pix[j+stride : j+stride+6 : j+stride+6]
		o := &out[i]
		for k := range 3 {
			ch := 2 - k // BGR to RGB
			a := float64(p[ch])*(1-fx) + float64(p[3+ch])*fx
			b := float64(q[ch])*(1-fx) + float64(q[3+ch])*fx
			o[k] = a*(1-fy) + b*fy
		}
	}
	return true
}
