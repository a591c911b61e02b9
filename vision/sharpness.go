package vision

import (
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// How sharp a photograph is, without a calibration
//
// Without a calibration nothing says how large the things in a photograph
// are in pixels, and the detector's edges, arcs and votes are tuned to
// edges a pixel or two wide, as a camera frame's are at detection size. A
// photograph enlarged from a smaller one, or out of focus, has edges
// several pixels wide; at its own size their gradient is weak and spread
// and the arcs along them break: the real photographs of the circle data
// set enlarged 2x (Lanczos) lost half their circles (F 1.000 to 0.625;
// 3x: 0.565). So an uncalibrated frame is measured first: at each strong
// edge, the step's height across it over the gradient's peak is the
// edge's width in pixels (a step blurred by a Gaussian of sigma s: 2.5 s).
// When the median is twice a sharp edge's or more, the frame is detected
// shrunk by their ratio, where its edges are sharp again, but never below
// edgeShrinkSide pixels on its short side (the data set's own images,
// 256 pixels and more, keep their size: a small image has no pixel to
// spare). Measured: the data set enlarged 2x F 0.625 to 0.984, 3x 0.565
// to 0.903, as it is 1.000 and at 0.6x 0.871 unchanged; rendered tables
// (edges 2.0-2.6 pixels wide at detection size) unchanged. Shrinking
// from 1.35 times a sharp edge's width also enlarged the data set well,
// but shrank 61 of 125 sample photographs of OpenCV and scikit-image
// (most webcam and phone photographs have edges 2.7 to 4 pixels wide) and
// took 300 circles in them against 226; from twice, 11 are shrunk and 231
// taken (the ball of basketball2.png found, with phantoms on the players;
// 13 fewer galaxies of hubble_deep_field.jpg). A calibrated frame keeps
// its detection size: its scale is known and its disks are sized in cm.

// smallFrameSide: a frame without calibration whose short side is under
// it (and not shrunk) is detected at twice its size, so that its small
// circles have the pixels the arcs and votes ask of a circle (the circle
// data set's photographs at 0.6x, 115-262 pixels: F 0.871 to 0.968, at
// their own size unchanged; 40 sample photographs of OpenCV and
// scikit-image at 0.4x: 43 circles taken against 40).
const smallFrameSide = 200

// Edge width measurement: the step's height is read edgeStepReach pixels
// either side of the edge along its gradient; an edge counts when its
// height is at least edgeStepLeast grey levels; the median needs
// edgeWidthSamples edges; a width up to sharpEdgeWidth times
// edgeShrinkFrom is left as it is; the frame is never shrunk below
// edgeShrinkSide pixels on its short side, nor by more than
// edgeShrinkMost.
const (
	edgeStepReach    = 6
	edgeStepLeast    = 40
	edgeWidthSamples = 200
	sharpEdgeWidth   = 2.0
	edgeShrinkFrom   = 2.0
	edgeShrinkSide   = 256
	edgeShrinkMost   = 4.0
)

// edgeWidth returns the median width in pixels of the strong edges of the
// grey image g (one byte a pixel, w x h), sampled every other pixel each
// way; 0 when too few edges to tell.
func edgeWidth(g []byte, w, h int) float64 {
	at := func(x, y int) float64 { return float64(g[y*w+x]) }
	bil := func(x, y float64) (float64, bool) {
		x0, y0 := int(math.Floor(x)), int(math.Floor(y))
		if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
			return 0, false
		}
		fx, fy := x-float64(x0), y-float64(y0)
		top := at(x0, y0)*(1-fx) + at(x0+1, y0)*fx
		bot := at(x0, y0+1)*(1-fx) + at(x0+1, y0+1)*fx
		return top*(1-fy) + bot*fy, true
	}
	grad := func(x, y int) (float64, float64) {
		gx := (at(x+1, y-1) + 2*at(x+1, y) + at(x+1, y+1) - at(x-1, y-1) - 2*at(x-1, y) - at(x-1, y+1)) / 8
		gy := (at(x-1, y+1) + 2*at(x, y+1) + at(x+1, y+1) - at(x-1, y-1) - 2*at(x, y-1) - at(x+1, y-1)) / 8
		return gx, gy
	}
	// The Sobel response, times 8, as integers: a cheap first look (|gx| +
	// |gy| is at least the magnitude) passes over flat ground.
	least := int(math.Ceil(8 * edgeStepLeast / (2 * edgeStepReach)))
	var widths []float64
	for y := edgeStepReach + 2; y < h-edgeStepReach-2; y += 2 {
		up, row, down := g[(y-1)*w:y*w], g[y*w:(y+1)*w], g[(y+1)*w:(y+2)*w]
		for x := edgeStepReach + 2; x < w-edgeStepReach-2; x += 2 {
			ix := int(up[x+1]) + 2*int(row[x+1]) + int(down[x+1]) - int(up[x-1]) - 2*int(row[x-1]) - int(down[x-1])
			iy := int(down[x-1]) + 2*int(down[x]) + int(down[x+1]) - int(up[x-1]) - 2*int(up[x]) - int(up[x+1])
			if abs(ix)+abs(iy) < least {
				continue
			}
			gx, gy := float64(ix)/8, float64(iy)/8
			m := math.Hypot(gx, gy)
			// At least a step of edgeStepLeast over the reach either way.
			if m < edgeStepLeast/(2*edgeStepReach) {
				continue
			}
			nx, ny := gx/m, gy/m
			// The gradient's peak across the edge.
			sx, sy := int(math.Round(nx)), int(math.Round(ny))
			if m1x, m1y := grad(x+sx, y+sy); math.Hypot(m1x, m1y) > m {
				continue
			}
			if m2x, m2y := grad(x-sx, y-sy); math.Hypot(m2x, m2y) >= m {
				continue
			}
			a, ok1 := bil(float64(x)+edgeStepReach*nx, float64(y)+edgeStepReach*ny)
			b, ok2 := bil(float64(x)-edgeStepReach*nx, float64(y)-edgeStepReach*ny)
			if !ok1 || !ok2 || a-b < edgeStepLeast {
				continue
			}
			widths = append(widths, (a-b)/m)
		}
	}
	if len(widths) < edgeWidthSamples {
		return 0
	}
	slices.Sort(widths)
	return widths[len(widths)/2]
}

// shrinkForSharpness returns by how much to shrink the BGR image src so
// that its edges are about as sharp as a camera frame's at detection
// size: 1 (not at all) when they are, or when too few edges tell; grey is
// a work Mat.
func shrinkForSharpness(src gocv.Mat, grey *gocv.Mat) float64 {
	gocv.CvtColor(src, grey, gocv.ColorBGRToGray)
	g, err := grey.DataPtrUint8()
	if err != nil {
		return 1
	}
	w, h := grey.Cols(), grey.Rows()
	ew := edgeWidth(g, w, h)
	f := ew / sharpEdgeWidth
	if !(f >= edgeShrinkFrom) {
		return 1
	}
	f = min(f, edgeShrinkMost, float64(min(w, h))/edgeShrinkSide)
	// In quarter steps, so that frames of one camera keep one size.
	f = math.Floor(f*4) / 4
	return max(f, 1)
}

// shrunkSize is the size of a w x h image shrunk by f.
func shrunkSize(w, h int, f float64) image.Point {
	return image.Pt(max(8, int(math.Round(float64(w)/f))), max(8, int(math.Round(float64(h)/f))))
}

// noiseQuiet is the noise (standard deviation of grey levels at detection
// size, noiseLevel) up to which the edge thresholds are as they are; over
// it they are raised in proportion. The circle data set's photographs
// measure 0.2-1.3, rendered tables 1.1-2.5 at detection size (so none of
// the 120 scenes of seeds 1-40 changed); with noise of 12 grey levels a
// channel added, 7-8: there the noise's own steps passed Canny's
// thresholds everywhere, the arcs broke on them and the detector found 5
// of the 32 circles for 20 phantoms (F 0.18); with the thresholds raised,
// 23 for 1 phantom (F 0.82; at 6 grey levels a channel, noise 4, F 0.83
// to 0.90). Blurring more in place of it (the residual noise kept at
// noiseQuiet) found 16 for 3 phantoms.
const noiseQuiet = 3.0

// noisyColourKernel is the side of the Gaussian that smooths a noisy
// frame (one whose edge thresholds are raised, noiseQuiet) before its
// colours are read: a chit's colour, a rim's, the light over the table
// are judged pixel by pixel in the frame, and noise of 12 grey levels a
// channel threw a third of a chit's pixels out of its colour's tolerance.
// On medium seeds 1-8 with that noise the detector found 28 of the 48
// chits; with the colours read smoothed 5x5, 48 (for 2 phantoms, as
// without noise), and disks 90 of 90 for 0 phantoms (2 before). A 3x3
// smoothing found 48 for 3 phantoms. Rendered tables are never that noisy
// (noise 1.1-2.5 at detection size, under noiseQuiet): they are read as
// they are.
const noisyColourKernel = 5

// edgeThresholdScale returns by how much to raise the edge thresholds of
// the BGR image src for its noise: 1 up to noiseQuiet; grey is a work Mat.
func edgeThresholdScale(src gocv.Mat, grey *gocv.Mat) float64 {
	gocv.CvtColor(src, grey, gocv.ColorBGRToGray)
	g, err := grey.DataPtrUint8()
	if err != nil {
		return 1
	}
	return max(1, noiseLevel(g, grey.Cols(), grey.Rows())/noiseQuiet)
}

// noiseLevel estimates the standard deviation of the white noise of the
// grey image g (w x h), after Immerkaer (1996): the mean absolute
// response of a Laplacian difference kernel that cancels every plane and
// most edges, over every other pixel each way.
func noiseLevel(g []byte, w, h int) float64 {
	if w < 3 || h < 3 {
		return 0
	}
	sum, n := 0.0, 0
	for y := 1; y < h-1; y += 2 {
		r0, r1, r2 := g[(y-1)*w:y*w], g[y*w:(y+1)*w], g[(y+1)*w:(y+2)*w]
		for x := 1; x < w-1; x += 2 {
			v := int(r0[x-1]) - 2*int(r0[x]) + int(r0[x+1]) -
				2*int(r1[x-1]) + 4*int(r1[x]) - 2*int(r1[x+1]) +
				int(r2[x-1]) - 2*int(r2[x]) + int(r2[x+1])
			if v < 0 {
				v = -v
			}
			sum += float64(v)
			n++
		}
	}
	return math.Sqrt(math.Pi/2) * sum / (6 * float64(n))
}

// Contrast of a photograph without a calibration: its grey levels, the
// darkest and brightest contrastTail of its pixels left out, should span
// contrastSpan; a photograph that spans less (dim light, a lamp's glare on
// the lens, a cheap camera's flat picture) is stretched to it around the
// middle of its range, by at most contrastMostGain, for its edges (the
// chits' colours are read in it as it is: a small vivid chit is what the
// stretch clips). A gain under contrastLeastGain is not worth it
// (OpenCV's water_coins.jpg measures 1.25, and stretched, 2 of its coins
// went and 2 circles that are none came). The edge thresholds are in grey
// levels: on the circle data set at a third of its light the detector
// found 22 of the 32 circles, and at 0.45 of its contrast 25; stretched,
// 31 and 28 (TestDimAndFlatPhotographsKeepTheirCircles), and the
// photographs as they are lose none (4 of them are stretched, 1.5-2.2x).
// Measured and left out: a span of 200 (one circle lost at full light),
// 250 (3 lost with a bright spot in the middle); the black point kept at
// 0 (2 lost at full light); at most 2x (4 lost at a third of the light),
// at most 5x (small dim photographs worse: noise stretched with them);
// tails of 0.2 % (the data set as it is lost 2 circles).
const (
	contrastSpan      = 230.0
	contrastMostGain  = 3.0
	contrastLeastGain = 1.3 // less is left as it is
	contrastTail      = 0.005
)

// stretchContrast stretches the BGR image img in place as the contrast
// constants say and returns the gain (1: left as it is); when it does, img
// as it was is copied into kept first (nil: not kept). grey is a work Mat.
func stretchContrast(img, kept, grey *gocv.Mat) float64 {
	gocv.CvtColor(*img, grey, gocv.ColorBGRToGray)
	g, err := grey.DataPtrUint8()
	if err != nil || len(g) == 0 {
		return 1
	}
	var hist [256]int
	for _, v := range g {
		hist[v]++
	}
	tail := int(float64(len(g)) * contrastTail)
	lo, n := 0, 0
	for lo < 255 && n+hist[lo] <= tail {
		n += hist[lo]
		lo++
	}
	hi := 255
	for n = 0; hi > 0 && n+hist[hi] <= tail; hi-- {
		n += hist[hi]
	}
	span := float64(hi - lo)
	if span <= 0 {
		return 1 // one grey level: nothing to stretch
	}
	gain := min(contrastMostGain, contrastSpan/span)
	if gain < contrastLeastGain {
		return 1
	}
	beta := (255-span*gain)/2 - float64(lo)*gain
	if kept != nil {
		img.CopyTo(kept)
	}
	img.ConvertToWithParams(img, img.Type(), float32(gain), float32(beta))
	return gain
}
