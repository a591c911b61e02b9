package board9

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"tableref/calibration"
)

// frame is a camera frame as floats (RGB in [0, 1] and luminance), read
// in working coordinates: pixels of the frame itself, or of the
// undistorted frame when a lens is given (straight lines stay straight).
type frame struct {
	w, h int
	rgb  []float32 // 3 per pixel
	gray []float32
	lens *calibration.Camera
}

// newFrame copies img; lens, when not nil, must have img's size.
func newFrame(img image.Image, lens *calibration.Camera) (*frame, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w < 32 || h < 32 {
		return nil, fmt.Errorf("frame of %dx%d pixels: too small to hold a board", w, h)
	}
	if lens != nil && (lens.Width != w || lens.Height != h) {
		return nil, fmt.Errorf("frame of %dx%d pixels, but the calibration is for %dx%d frames", w, h, lens.Width, lens.Height)
	}
	f := &frame{w: w, h: h, rgb: make([]float32, 3*w*h), gray: make([]float32, w*h), lens: lens}
	for y := range h {
		for x := range w {
			r, g, bl := pixelAt(img, b.Min.X+x, b.Min.Y+y)
			i := y*w + x
			f.rgb[3*i], f.rgb[3*i+1], f.rgb[3*i+2] = r, g, bl
			f.gray[i] = 0.299*r + 0.587*g + 0.114*bl
		}
	}
	return f, nil
}

// pixelAt reads a pixel as RGB in [0, 1], without the interface call and
// allocation of image.At for the types decoders return.
func pixelAt(img image.Image, x, y int) (float32, float32, float32) {
	switch m := img.(type) {
	case *image.RGBA:
		i := m.PixOffset(x, y)
		return float32(m.Pix[i]) / 255, float32(m.Pix[i+1]) / 255, float32(m.Pix[i+2]) / 255
	case *image.NRGBA:
		i := m.PixOffset(x, y)
		a := float32(m.Pix[i+3]) / 255
		return float32(m.Pix[i]) / 255 * a, float32(m.Pix[i+1]) / 255 * a, float32(m.Pix[i+2]) / 255 * a
	case *image.YCbCr:
		yi, ci := m.YOffset(x, y), m.COffset(x, y)
		r, g, b := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
		return float32(r) / 255, float32(g) / 255, float32(b) / 255
	}
	r, g, b, _ := img.At(x, y).RGBA()
	return float32(r) / 65535, float32(g) / 65535, float32(b) / 65535
}

// gray8 is the luminance as 8-bit pixels (for OpenCV).
func (f *frame) gray8() []byte {
	out := make([]byte, len(f.gray))
	for i, v := range f.gray {
		out[i] = byte(math.Max(0, math.Min(255, math.Round(float64(v)*255))))
	}
	return out
}

// raw maps a working point to the frame's own pixel.
func (f *frame) raw(p point) point {
	if f.lens == nil {
		return p
	}
	q := f.lens.Distorted(calibration.Pixel{U: p.X, V: p.Y})
	return point{q.U, q.V}
}

// working maps a pixel of the frame to working coordinates.
func (f *frame) working(p point) point {
	if f.lens == nil {
		return p
	}
	q := f.lens.Undistorted(calibration.Pixel{U: p.X, V: p.Y})
	return point{q.U, q.V}
}

// lum is the bilinear luminance at working point p; false off the frame.
func (f *frame) lum(p point) (float64, bool) {
	var v [1]float64
	ok := f.sample(p, f.gray, 1, v[:])
	return v[0], ok
}

// colour is the bilinear colour at working point p; false off the frame.
func (f *frame) colour(p point) ([3]float64, bool) {
	var v [3]float64
	ok := f.sample(p, f.rgb, 3, v[:])
	return v, ok
}

func (f *frame) sample(p point, buf []float32, n int, out []float64) bool {
	q := f.raw(p)
	if q.X < 0 || q.Y < 0 || q.X > float64(f.w-1) || q.Y > float64(f.h-1) || math.IsNaN(q.X) || math.IsNaN(q.Y) {
		return false
	}
	x0, y0 := int(q.X), int(q.Y)
	x1, y1 := min(x0+1, f.w-1), min(y0+1, f.h-1)
	fx, fy := float32(q.X-float64(x0)), float32(q.Y-float64(y0))
	for c := range n {
		a := buf[n*(y0*f.w+x0)+c]*(1-fx) + buf[n*(y0*f.w+x1)+c]*fx
		b := buf[n*(y1*f.w+x0)+c]*(1-fx) + buf[n*(y1*f.w+x1)+c]*fx
		out[c] = float64(a*(1-fy) + b*fy)
	}
	return true
}
