package track

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

// table returns a textured table frame with sensor noise of the given seed.
func table(w, h int, seed uint64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(seed, 1))
	for y := range h {
		for x := range w {
			g := 110 + 30*math.Sin(float64(x)/9)*math.Cos(float64(y)/13)
			n := 3 * rng.NormFloat64()
			img.SetRGBA(x, y, color.RGBA{uint8(g + n), uint8(g*0.9 + n), uint8(g*0.7 + n), 255})
		}
	}
	return img
}

// paint fills the pixels within r of (cx, cy), or of the segment to
// (ex, ey) when given, with c.
func paint(img *image.RGBA, cx, cy, ex, ey, r float64, c color.RGBA) {
	b := img.Bounds()
	dx, dy := ex-cx, ey-cy
	l2 := dx*dx + dy*dy
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			t := 0.0
			if l2 > 0 {
				t = math.Max(0, math.Min(1, ((float64(x)-cx)*dx+(float64(y)-cy)*dy)/l2))
			}
			if math.Hypot(float64(x)-cx-t*dx, float64(y)-cy-t*dy) < r {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

func TestDifferTellsNoiseMotionHandsAndBumps(t *testing.T) {
	const w, h = 320, 180
	skin := color.RGBA{220, 165, 130, 255}
	disk := color.RGBA{40, 60, 180, 255}
	cases := []struct {
		name                 string
		frame                func() *image.RGBA
		moving, hand, global bool
	}{
		{"the same table with fresh noise", func() *image.RGBA { return table(w, h, 2) }, false, false, false},
		{"a disk laid in the middle", func() *image.RGBA {
			f := table(w, h, 3)
			paint(f, 160, 90, 160, 90, 12, disk)
			return f
		}, true, false, false},
		{"an arm reaching in from the edge", func() *image.RGBA {
			f := table(w, h, 4)
			paint(f, 150, 80, 150, 200, 18, skin)
			return f
		}, true, true, false},
		{"the camera knocked", func() *image.RGBA {
			f := table(w, h, 5)
			g := table(w, h, 6)
			for y := range h {
				for x := range w {
					f.SetRGBA(x, y, g.RGBAAt(min(w-1, x+15), y))
				}
			}
			return f
		}, true, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d Differ
			d.Observe(table(w, h, 1))
			d.Observe(table(w, h, 7))
			m := d.Observe(c.frame())
			if m.Moving != c.moving || (m.Hand != nil) != c.hand || m.Global != c.global {
				t.Errorf("got moving %v, hand %v, global %v; want %v, %v, %v", m.Moving, m.Hand != nil, m.Global, c.moving, c.hand, c.global)
			}
		})
	}
}

func TestAHandHeldStillIsNotMotionButStaysAHand(t *testing.T) {
	const w, h = 320, 180
	var d Differ
	d.Observe(table(w, h, 1))
	arm := func(seed uint64) *image.RGBA {
		f := table(w, h, seed)
		paint(f, 100, 60, 0, 60, 15, color.RGBA{200, 150, 120, 255})
		return f
	}
	d.Observe(arm(2))
	m := d.Observe(arm(3))
	if m.Moving || m.Hand == nil {
		t.Fatalf("a still arm: got moving %v, hand %v; want false, true", m.Moving, m.Hand != nil)
	}
	if !m.Hand.At(50, 60) || m.Hand.At(250, 150) {
		t.Errorf("the hand mask: got %v at the arm, %v far from it; want true, false", m.Hand.At(50, 60), m.Hand.At(250, 150))
	}
	if d.AtReference() {
		t.Errorf("with the arm in view: got AtReference true")
	}
	d.Observe(table(w, h, 4))
	if m := d.Observe(table(w, h, 5)); m.Hand != nil || !d.AtReference() {
		t.Errorf("the arm gone: got hand %v, at reference %v; want none, true", m.Hand != nil, d.AtReference())
	}
}

func TestMaskCoversCircles(t *testing.T) {
	m := &Mask{Cell: 10, W: 4, H: 4, Cells: make([]bool, 16)}
	m.Cells[1*4+1] = true // pixels 10-20, 10-20
	cases := []struct {
		u, v, r float64
		want    bool
	}{{15, 15, 1, true}, {25, 15, 4, false}, {25, 15, 5.5, true}, {35, 35, 5, false}}
	for _, c := range cases {
		if got := m.Covers(c.u, c.v, c.r); got != c.want {
			t.Errorf("Covers(%v, %v, %v): got %v, want %v", c.u, c.v, c.r, got, c.want)
		}
	}
	if got := m.Area(); got != 1 {
		t.Errorf("Area: got %d, want 1", got)
	}
}

func BenchmarkDifferObserve960x540(b *testing.B) {
	frames := []*image.RGBA{table(960, 540, 1), table(960, 540, 2)}
	var d Differ
	b.ResetTimer()
	for i := range b.N {
		d.Observe(frames[i%2])
	}
}
