package synth

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
)

// Render returns the scene's photograph: the ray-cast table under the
// scene's light, with blur and sensor noise, then compressed as a JPEG of
// the tier's quality and decoded again. JPEG returns the compressed bytes.
func (s *Scene) Render() (image.Image, error) {
	b, err := s.JPEG()
	if err != nil {
		return nil, err
	}
	return jpeg.Decode(bytes.NewReader(b))
}

// JPEG renders the photograph and returns it as a JPEG file.
func (s *Scene) JPEG() ([]byte, error) {
	return encodeJPEG(s.develop(s.stage(false).render(3), 1), s.spec.jpeg)
}

// RenderBoard returns the view of the calibration board lying on the
// empty table, through the same camera, under the same light (lossless:
// a user would save the board view as PNG).
func (s *Scene) RenderBoard() *image.RGBA {
	return s.develop(s.stage(true).render(4), 2)
}

// Raw returns the photograph before blur, noise and JPEG.
func (s *Scene) Raw() *image.RGBA {
	w, h := s.Camera.Width, s.Camera.Height
	px := s.stage(false).render(3)
	s.applyLight(px)
	return toImage(px, w, h)
}

func encodeJPEG(img image.Image, q int) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		return nil, fmt.Errorf("encoding JPEG: %w", err)
	}
	return b.Bytes(), nil
}

// develop applies the light's unevenness, the lens blur and the sensor
// noise (seeded from the scene and stream, so each view has its own).
func (s *Scene) develop(px []rgb, stream uint64) *image.RGBA {
	w, h := s.Camera.Width, s.Camera.Height
	s.applyLight(px)
	blur(px, w, h, s.spec.blur)
	rng := rand.New(rand.NewPCG(s.Seed^0x5eed, stream))
	sigma := s.spec.noise / 255
	for i := range px {
		// Shot noise grows with brightness; read noise does not.
		k := sigma * (0.6 + 0.6*math.Sqrt(math.Max(0, px[i].G)))
		px[i].R += k * rng.NormFloat64()
		px[i].G += k * rng.NormFloat64()
		px[i].B += k * rng.NormFloat64()
	}
	return toImage(px, w, h)
}

func (s *Scene) applyLight(px []rgb) {
	w, h := s.Camera.Width, s.Camera.Height
	for y := range h {
		for x := range w {
			px[y*w+x] = px[y*w+x].scale(s.light.gain(float64(x)/float64(w), float64(y)/float64(h)))
		}
	}
}

// blur applies a separable Gaussian blur of the given sigma in pixels.
func blur(px []rgb, w, h int, sigma float64) {
	if sigma <= 0 {
		return
	}
	rad := int(math.Ceil(3 * sigma))
	k := make([]float64, 2*rad+1)
	var sum float64
	for i := range k {
		d := float64(i - rad)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	tmp := make([]rgb, len(px))
	pass := func(src, dst []rgb, n, m int, at func(i, j int) int) {
		parallelRows(m, func(j int) {
			for i := range n {
				var c rgb
				for t, kv := range k {
					ii := min(max(i+t-rad, 0), n-1)
					c = c.add(src[at(ii, j)].scale(kv))
				}
				dst[at(i, j)] = c
			}
		})
	}
	pass(px, tmp, w, h, func(i, j int) int { return j*w + i })
	pass(tmp, px, h, w, func(i, j int) int { return i*w + j })
}
