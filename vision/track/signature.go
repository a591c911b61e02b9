package track

import (
	"image"
	"math"

	"tableref/models"
)

// Rings of a signature, as fractions of the disk's radius in the image:
// three rings of art and the rim.
var ringEdges = [...]float64{0, 0.4, 0.65, 0.86}

const (
	nRings   = len(ringEdges) - 1
	nHues    = 12
	nGreys   = 3
	nBins    = nHues + nGreys
	rimInner = 0.9
	rimOuter = 0.98
)

// Signature describes what a disk's face looks like, whatever way it is
// turned: for each ring of the art, a histogram of colour classes (twelve
// hues and three greys), and the mean colour of the rim. Two views of the
// same face turned any way have near signatures; a flipped disk shows its
// other face, which may differ (the tracker learns both).
type Signature struct {
	Rings [nRings][nBins]float32
	Rim   [3]float32 // mean RGB, 0-255
	// Samples is how many pixels were read; 0: not measured.
	Samples int
}

// Valid reports whether the signature was measured on enough pixels.
func (s Signature) Valid() bool { return s.Samples >= 40 }

// Distance is how unlike two signatures are: 0 for the same, about 1 for
// unrelated faces (the mean half-L1 distance of the ring histograms, plus
// the rim colour difference as a fraction of full scale).
func (s Signature) Distance(o Signature) float64 {
	var d float64
	for k := range nRings {
		var l1 float64
		for b := range nBins {
			l1 += math.Abs(float64(s.Rings[k][b] - o.Rings[k][b]))
		}
		d += l1 / 2
	}
	d /= float64(nRings)
	var rim float64
	for c := range 3 {
		rim += math.Abs(float64(s.Rim[c] - o.Rim[c]))
	}
	return d + 0.5*rim/(3*255)
}

// blend returns the running mean of s and a new view o, weighing o by w.
func (s Signature) blend(o Signature, w float32) Signature {
	out := s
	for k := range nRings {
		for b := range nBins {
			out.Rings[k][b] = (1-w)*s.Rings[k][b] + w*o.Rings[k][b]
		}
	}
	for c := range 3 {
		out.Rim[c] = (1-w)*s.Rim[c] + w*o.Rim[c]
	}
	out.Samples = max(s.Samples, o.Samples)
	return out
}

// colourClass returns the histogram bin of an RGB colour (0-255).
func colourClass(c [3]float32) int {
	r, g, b := float64(c[0])/255, float64(c[1])/255, float64(c[2])/255
	hi, lo := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if hi < 0.12 || hi-lo < 0.18*hi+0.04 {
		switch {
		case hi < 0.3:
			return nHues
		case hi < 0.65:
			return nHues + 1
		}
		return nHues + 2
	}
	var h float64
	switch hi {
	case r:
		h = math.Mod((g-b)/(hi-lo)+6, 6)
	case g:
		h = (b-r)/(hi-lo) + 2
	default:
		h = (r-g)/(hi-lo) + 4
	}
	return min(int(h/6*nHues), nHues-1)
}

// Measure returns the signature of every disk of the layout in the image
// it was found in (by its pixel circle: px, py, pr), leaving out the parts
// covered by disks above it and by the hand mask (nil: no hand). A disk
// without a pixel circle, or too covered, gets a signature that is not
// Valid.
func Measure(img image.Image, l models.Layout, hand *Mask) []Signature {
	pr := newPixelReader(img)
	out := make([]Signature, len(l.Disks))
	for i, d := range l.Disks {
		if d.Pixel == nil || d.Pixel.PR < 3 {
			continue
		}
		out[i] = measureDisk(pr, l, i, hand)
	}
	return out
}

// covered reports whether pixel (u, v) lies under a disk above disk i or
// under the hand.
func covered(l models.Layout, i int, u, v float64, hand *Mask) bool {
	if hand != nil && hand.At(u, v) {
		return true
	}
	for j, o := range l.Disks {
		if j == i || o.Pixel == nil || o.Z <= l.Disks[i].Z {
			continue
		}
		if math.Hypot(u-o.Pixel.PX, v-o.Pixel.PY) < o.Pixel.PR*1.04 {
			return true
		}
	}
	return false
}

func measureDisk(pr pixelReader, l models.Layout, i int, hand *Mask) Signature {
	var s Signature
	p := l.Disks[i].Pixel
	// Sample on polar grids: more angles further out, about one sample
	// per pixel of arc at small radii.
	steps := max(8, min(28, int(p.PR/2)))
	var counts [nRings]float32
	for k := range nRings {
		for j := range 3 {
			f := ringEdges[k] + (ringEdges[k+1]-ringEdges[k])*(float64(j)+0.5)/3
			na := max(6, int(2*math.Pi*f*float64(steps)))
			for a := range na {
				t := 2 * math.Pi * (float64(a) + 0.5*float64(j)) / float64(na)
				u, v := p.PX+f*p.PR*math.Cos(t), p.PY+f*p.PR*math.Sin(t)
				if covered(l, i, u, v, hand) {
					continue
				}
				c, ok := pr.at(int(math.Round(u)), int(math.Round(v)))
				if !ok {
					continue
				}
				s.Rings[k][colourClass(c)]++
				counts[k]++
				s.Samples++
			}
		}
	}
	for k := range nRings {
		if counts[k] > 0 {
			for b := range nBins {
				s.Rings[k][b] /= counts[k]
			}
		}
	}
	var rimN float32
	for a := range 64 {
		t := 2 * math.Pi * float64(a) / 64
		f := (rimInner + rimOuter) / 2
		u, v := p.PX+f*p.PR*math.Cos(t), p.PY+f*p.PR*math.Sin(t)
		if covered(l, i, u, v, hand) {
			continue
		}
		if c, ok := pr.at(int(math.Round(u)), int(math.Round(v))); ok {
			for ch := range 3 {
				s.Rim[ch] += c[ch]
			}
			rimN++
		}
	}
	if rimN > 0 {
		for ch := range 3 {
			s.Rim[ch] /= rimN
		}
	}
	return s
}
