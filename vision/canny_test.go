package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
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
