package track

import (
	"image"
	"testing"

	"tableref/models"
	"tableref/vision/synth"
)

// turned returns the image turned half round and the layout's pixel
// circles with it.
func turned(img image.Image, l models.Layout) (*image.RGBA, models.Layout) {
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(b.Max.X-1-x+b.Min.X, b.Max.Y-1-y+b.Min.Y, img.At(x, y))
		}
	}
	t := l.Clone()
	for i := range t.Disks {
		p := *t.Disks[i].Pixel
		p.PX, p.PY = float64(b.Dx()-1)-p.PX, float64(b.Dy()-1)-p.PY
		t.Disks[i].Pixel = &p
	}
	return out, t
}

func TestSignaturesKnowADiskTurnedRound(t *testing.T) {
	sc, err := synth.Generate(4, synth.Easy, synth.Options{Width: 640, Height: 360})
	if err != nil {
		t.Fatal(err)
	}
	img, err := sc.Render()
	if err != nil {
		t.Fatal(err)
	}
	a := Measure(img, sc.Truth, nil)
	img2, l2 := turned(img, sc.Truth)
	b := Measure(img2, l2, nil)
	for i := range a {
		if !a[i].Valid() || !b[i].Valid() {
			t.Fatalf("disk %s: signature not measured (%d, %d samples)", sc.Truth.Disks[i].ID, a[i].Samples, b[i].Samples)
		}
		self := a[i].Distance(b[i])
		for j := range b {
			if j == i {
				continue
			}
			if other := a[i].Distance(b[j]); other <= self {
				t.Errorf("disk %s turned round is %.3f from itself but %.3f from %s", sc.Truth.Disks[i].ID, self, other, sc.Truth.Disks[j].ID)
			}
		}
	}
}

func TestSignatureLeavesOutTheHand(t *testing.T) {
	sc, err := synth.Generate(4, synth.Easy, synth.Options{Width: 640, Height: 360})
	if err != nil {
		t.Fatal(err)
	}
	img, _ := sc.Render()
	p := sc.Truth.Disks[0].Pixel
	hand := &Mask{Cell: 4, W: 160, H: 90, Cells: make([]bool, 160*90)}
	for i := range hand.Cells {
		hand.Cells[i] = true
	}
	if s := Measure(img, sc.Truth, hand)[0]; s.Valid() {
		t.Errorf("disk at (%.0f, %.0f) wholly under the hand: got a valid signature of %d samples", p.PX, p.PY, s.Samples)
	}
}
