package track

import (
	"image"
	"image/color"
)

// pixelReader reads 8-bit RGB from an image, with fast paths for the
// formats frames usually arrive in (RGBA from renderers and gocv's
// ToImage, YCbCr from JPEG decoding).
type pixelReader struct {
	img  image.Image
	rgba *image.RGBA
	ycc  *image.YCbCr
	b    image.Rectangle
}

func newPixelReader(img image.Image) pixelReader {
	r := pixelReader{img: img, b: img.Bounds()}
	switch m := img.(type) {
	case *image.RGBA:
		r.rgba = m
	case *image.YCbCr:
		r.ycc = m
	}
	return r
}

// at returns the colour at (x, y), relative to the image's top-left
// corner; ok is false outside the image.
func (r pixelReader) at(x, y int) (c [3]float32, ok bool) {
	if x < 0 || y < 0 || x >= r.b.Dx() || y >= r.b.Dy() {
		return c, false
	}
	x, y = x+r.b.Min.X, y+r.b.Min.Y
	switch {
	case r.rgba != nil:
		i := r.rgba.PixOffset(x, y)
		p := r.rgba.Pix[i : i+3 : i+3]
		return [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}, true
	case r.ycc != nil:
		yi, ci := r.ycc.YOffset(x, y), r.ycc.COffset(x, y)
		cr, cg, cb := color.YCbCrToRGB(r.ycc.Y[yi], r.ycc.Cb[ci], r.ycc.Cr[ci])
		return [3]float32{float32(cr), float32(cg), float32(cb)}, true
	}
	cr, cg, cb, _ := r.img.At(x, y).RGBA()
	return [3]float32{float32(cr >> 8), float32(cg >> 8), float32(cb >> 8)}, true
}
