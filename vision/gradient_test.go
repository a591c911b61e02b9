package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// Canny from the image's own 3x3 Sobel gradient is Canny of the image,
// pixel for pixel, at the detector's thresholds and others.
func TestCannyGradientIsCannyOfTheImage(t *testing.T) {
	img := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV8U)
	defer img.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 40 {
		c := image.Pt(rng.IntN(320), rng.IntN(240))
		gocv.Circle(&img, c, 5+rng.IntN(60), color.RGBA{B: uint8(rng.IntN(256))}, -1)
	}
	noise := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV8U)
	defer noise.Close()
	gocv.RandN(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(6, 0, 0, 0))
	gocv.Add(img, noise, &img)
	dx, dy, want, got, diff := gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer dx.Close()
	defer dy.Close()
	defer want.Close()
	defer got.Close()
	defer diff.Close()
	gocv.Sobel(img, &dx, gocv.MatTypeCV16S, 1, 0, 3, 1, 0, gocv.BorderReplicate)
	gocv.Sobel(img, &dy, gocv.MatTypeCV16S, 0, 1, 3, 1, 0, gocv.BorderReplicate)
	for _, th := range [][2]float32{{20, 50}, {10, 25}, {50, 150}} {
		gocv.Canny(img, &want, th[0], th[1])
		cannyGradient(dx, dy, &got, th[0], th[1])
		gocv.AbsDiff(want, got, &diff)
		if n, all := gocv.CountNonZero(diff), gocv.CountNonZero(want); n != 0 || all == 0 {
			t.Errorf("thresholds %v: %d of %d edge pixels differ", th, n, all)
		}
	}
}

// keepStrongest keeps, pixel by pixel, the stronger gradient, the new one
// counting double for chroma, clamped to int16.
func TestKeepStrongest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 1000
	for _, chroma := range []bool{false, true} {
		kx, ky, gx, gy := make([]int16, n), make([]int16, n), make([]int16, n), make([]int16, n)
		for i := range n {
			kx[i], ky[i] = int16(rng.IntN(4001)-2000), int16(rng.IntN(4001)-2000)
			gx[i], gy[i] = int16(rng.IntN(40001)-20000), int16(rng.IntN(2001)-1000)
		}
		wx, wy := slices.Clone(kx), slices.Clone(ky)
		k := int32(1)
		if chroma {
			k = 2
		}
		for i := range n {
			x, y := k*int32(gx[i]), k*int32(gy[i])
			if x*x+y*y > int32(wx[i])*int32(wx[i])+int32(wy[i])*int32(wy[i]) {
				wx[i], wy[i] = int16(max(min(x, 32767), -32767)), int16(max(min(y, 32767), -32767))
			}
		}
		keepStrongest(kx, ky, gx, gy, chroma)
		if !slices.Equal(kx, wx) || !slices.Equal(ky, wy) {
			t.Errorf("chroma %v: the kept gradients differ from the rule's", chroma)
		}
	}
}
