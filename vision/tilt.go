package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tableref/models"
)

// A photograph taken at a slant, without a calibration
//
// With a calibration the frame is rectified onto the table and a disk is
// a circle whatever the camera's tilt. Without one, a photograph taken at
// a slant shows every disk as an ellipse, all of them squashed the same
// way (the camera far from the table compared with its size), and circle
// fits fail on them: the circle data set's photographs squashed to 0.87 of
// their height (a camera tilted 30 degrees) kept 9 of their 32 circles, at
// 0.75 none. So an uncalibrated frame is looked at first for closed
// outlines that are ellipses (the edges' contours whose polygon moments
// give an ellipse they lie on, within 3 % of its size): when at least
// three of them, and most of all those found, agree on one squash (axis
// ratio under 0.93, within 0.06 of each other, their long axes within 12
// degrees), the frame is stretched across that axis back to circles, the
// detector runs on the stretched frame, and the disks and tokens found
// are mapped back into the photograph (a disk's pr is then the long half
// axis of its ellipse; x, y, r stay on the photograph seen square on,
// where the disks are circles). The layout says so in its warnings. A
// frame whose stretch fails the detector (too thin a frame once
// stretched) is detected as it is.

// Tilt search: the width the frame is looked at, the least outline
// (points, and half short axis in pixels), how far an outline's points
// may lie from its ellipse (share of its size), and the agreement asked.
const (
	tiltWidth      = 640
	tiltMinPoints  = 40
	tiltMinAxis    = 8
	tiltFitShare   = 0.03
	tiltFlat       = 0.93
	tiltRatioAgree = 0.06
	tiltAngleAgree = 12 * math.Pi / 180
	tiltLeast      = 3
	tiltMajority   = 0.6
	tiltMostSquash = 0.4
)

// ellipseOf returns the ellipse a closed outline (a polygon) bounds, by
// its area moments: its centre, half axes a >= b and the long axis's
// angle; ok is false when the polygon has no area.
func ellipseOf(pts []image.Point) (cx, cy, a, b, phi float64, ok bool) {
	var m00, m10, m01, m20, m11, m02 float64
	n := len(pts)
	for i := range n {
		p, q := pts[i], pts[(i+1)%n]
		x0, y0, x1, y1 := float64(p.X), float64(p.Y), float64(q.X), float64(q.Y)
		c := x0*y1 - x1*y0
		m00 += c
		m10 += (x0 + x1) * c
		m01 += (y0 + y1) * c
		m20 += (x0*x0 + x0*x1 + x1*x1) * c
		m11 += (x0*y1 + 2*x0*y0 + 2*x1*y1 + x1*y0) * c
		m02 += (y0*y0 + y0*y1 + y1*y1) * c
	}
	m00 /= 2
	if math.Abs(m00) < 1 {
		return 0, 0, 0, 0, 0, false
	}
	m10, m01 = m10/6, m01/6
	m20, m11, m02 = m20/12, m11/24, m02/12
	cx, cy = m10/m00, m01/m00
	u20 := m20/m00 - cx*cx
	u02 := m02/m00 - cy*cy
	u11 := m11/m00 - cx*cy
	tr, det := u20+u02, u20*u02-u11*u11
	disc := math.Sqrt(max(0, tr*tr/4-det))
	l1, l2 := tr/2+disc, tr/2-disc
	if !(l2 > 0) {
		return 0, 0, 0, 0, 0, false
	}
	// A filled ellipse of half axes a, b has second moments a^2/4, b^2/4.
	a, b = 2*math.Sqrt(l1), 2*math.Sqrt(l2)
	phi = 0.5 * math.Atan2(2*u11, u20-u02)
	return cx, cy, a, b, phi, true
}

// onEllipse reports whether the points lie on the ellipse, within
// tiltFitShare of its size on average.
func onEllipse(pts []image.Point, cx, cy, a, b, phi float64) bool {
	c, s := math.Cos(phi), math.Sin(phi)
	sum := 0.0
	for _, p := range pts {
		dx, dy := float64(p.X)-cx, float64(p.Y)-cy
		x, y := dx*c+dy*s, -dx*s+dy*c
		sum += math.Abs(math.Hypot(x/a, y/b) - 1)
	}
	return sum/float64(len(pts)) < tiltFitShare
}

// tilt is a squash of the frame: its ellipses' axis ratio (short over
// long) and the long axis's angle, radians.
type tilt struct {
	ratio, phi float64
}

// findTilt looks for the one squash that most closed outlines of the BGR
// frame agree on; ok is false when they do not (a frame seen square on,
// or with too few outlines to tell). grey and edges are work Mats.
func findTilt(frame gocv.Mat, grey, edges *gocv.Mat) (tilt, bool) {
	gocv.CvtColor(frame, grey, gocv.ColorBGRToGray)
	k := 1.0
	if frame.Cols() > tiltWidth {
		k = float64(frame.Cols()) / tiltWidth
		gocv.Resize(*grey, grey, image.Pt(tiltWidth, max(8, int(math.Round(float64(frame.Rows())/k)))), 0, 0, gocv.InterpolationArea)
	}
	gocv.GaussianBlur(*grey, grey, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	gocv.Canny(*grey, edges, 40, 100)
	contours := gocv.FindContours(*edges, gocv.RetrievalList, gocv.ChainApproxNone)
	defer contours.Close()
	type shape struct{ ratio, phi float64 }
	var good []shape
	for i := range contours.Size() {
		pts := contours.At(i).ToPoints()
		if len(pts) < tiltMinPoints {
			continue
		}
		cx, cy, a, b, phi, ok := ellipseOf(pts)
		if !ok || b < tiltMinAxis || !onEllipse(pts, cx, cy, a, b, phi) {
			continue
		}
		good = append(good, shape{b / a, math.Mod(phi+math.Pi, math.Pi)})
	}
	if len(good) < tiltLeast {
		return tilt{}, false
	}
	var flat []shape
	for _, s := range good {
		if s.ratio < tiltFlat && s.ratio >= tiltMostSquash {
			flat = append(flat, s)
		}
	}
	if len(flat) < tiltLeast {
		return tilt{}, false
	}
	// The squash most flat outlines agree with: each one's count of the
	// others within reach, the best's members averaged.
	angleOff := func(a, b float64) float64 {
		d := math.Abs(a - b)
		return min(d, math.Pi-d)
	}
	best, bestN := 0, 0
	for i, s := range flat {
		n := 0
		for _, o := range flat {
			if math.Abs(o.ratio-s.ratio) <= tiltRatioAgree && angleOff(o.phi, s.phi) <= tiltAngleAgree {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if bestN < tiltLeast || float64(bestN) < tiltMajority*float64(len(good)) {
		return tilt{}, false
	}
	var ratios []float64
	sx, sy := 0.0, 0.0
	for _, o := range flat {
		if math.Abs(o.ratio-flat[best].ratio) <= tiltRatioAgree && angleOff(o.phi, flat[best].phi) <= tiltAngleAgree {
			ratios = append(ratios, o.ratio)
			// Angles averaged as doubled angles (a line's direction).
			sx += math.Cos(2 * o.phi)
			sy += math.Sin(2 * o.phi)
		}
	}
	slices.Sort(ratios)
	return tilt{ratio: ratios[len(ratios)/2], phi: 0.5 * math.Atan2(sy, sx)}, true
}

// stretch is the affine map of a frame of size w x h that undoes tilt t:
// a stretch by 1/ratio across the long axis, then, when the stretched
// frame would hold more than stretchMostArea times the frame's pixels, a
// uniform shrink by g so that it does not (a 4000x3000 photograph at a
// ratio of 0.45 and 45 degrees would be 8278x7278); moved so that the
// frame stays in view. size is the stretched frame's.
type stretch struct {
	m    [2][3]float64 // frame to stretched
	inv  [2][3]float64 // stretched to frame
	g    float64       // the uniform shrink (1: none)
	size image.Point
}

// stretchMostArea is how many times the frame's pixels the stretched
// frame may hold.
const stretchMostArea = 1.5

func newStretch(t tilt, w, h int) stretch {
	s := 1 / t.ratio
	vx, vy := -math.Sin(t.phi), math.Cos(t.phi) // across the long axis
	a := [2][2]float64{{1 + (s-1)*vx*vx, (s - 1) * vx * vy}, {(s - 1) * vx * vy, 1 + (s-1)*vy*vy}}
	bounds := func(a [2][2]float64) (minX, minY, maxX, maxY float64) {
		minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, c := range [4][2]float64{{0, 0}, {float64(w), 0}, {0, float64(h)}, {float64(w), float64(h)}} {
			x, y := a[0][0]*c[0]+a[0][1]*c[1], a[1][0]*c[0]+a[1][1]*c[1]
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
		return
	}
	minX, minY, maxX, maxY := bounds(a)
	g := min(1, math.Sqrt(stretchMostArea*float64(w)*float64(h)/((maxX-minX)*(maxY-minY))))
	for i := range 2 {
		for j := range 2 {
			a[i][j] *= g
		}
	}
	minX, minY, maxX, maxY = bounds(a)
	st := stretch{g: g, size: image.Pt(int(math.Ceil(maxX-minX)), int(math.Ceil(maxY-minY)))}
	st.m = [2][3]float64{{a[0][0], a[0][1], -minX}, {a[1][0], a[1][1], -minY}}
	// The inverse of a: a stretch by ratio across the same axis, over g.
	r := t.ratio
	ai := [2][2]float64{{(1 + (r-1)*vx*vx) / g, (r - 1) * vx * vy / g}, {(r - 1) * vx * vy / g, (1 + (r-1)*vy*vy) / g}}
	st.inv = [2][3]float64{
		{ai[0][0], ai[0][1], ai[0][0]*minX + ai[0][1]*minY},
		{ai[1][0], ai[1][1], ai[1][0]*minX + ai[1][1]*minY},
	}
	return st
}

// back maps a point of the stretched frame into the frame.
func (s stretch) back(x, y float64) (float64, float64) {
	return s.inv[0][0]*x + s.inv[0][1]*y + s.inv[0][2], s.inv[1][0]*x + s.inv[1][1]*y + s.inv[1][2]
}

// apply warps frame into dst.
func (s stretch) apply(frame gocv.Mat, dst *gocv.Mat) error {
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	for i := range 2 {
		for j := range 3 {
			m.SetDoubleAt(i, j, s.m[i][j])
		}
	}
	gocv.WarpAffineWithParams(frame, dst, m, s.size, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	if dst.Empty() {
		return fmt.Errorf("%w: the frame could not be stretched", ErrBadFrame)
	}
	return nil
}

// mapBack moves a layout found on the stretched frame into the frame: the
// pixel centres of disks and tokens are mapped back, and a pixel radius is
// the long half axis of the ellipse seen. x, y, r (pixels without a
// calibration) stay in the stretched frame, over g: the table seen square
// on, at the scale of the long axes, where the disks are circles and
// their distances and overlaps are true.
func (s stretch) mapBack(l *models.Layout) {
	unshrink := func(v models.Centimetres) models.Centimetres { return models.Centimetres(round3(float64(v) / s.g)) }
	for i := range l.Disks {
		d := &l.Disks[i]
		if d.Pixel != nil {
			d.Pixel.PX, d.Pixel.PY = s.back(d.Pixel.PX, d.Pixel.PY)
			d.Pixel.PX, d.Pixel.PY, d.Pixel.PR = round3(d.Pixel.PX), round3(d.Pixel.PY), round3(d.Pixel.PR/s.g)
		}
		d.X, d.Y, d.R = unshrink(d.X), unshrink(d.Y), unshrink(d.R)
	}
	for i := range l.Tokens {
		t := &l.Tokens[i]
		if t.Pixel != nil {
			t.Pixel.PX, t.Pixel.PY = s.back(t.Pixel.PX, t.Pixel.PY)
			t.Pixel.PX, t.Pixel.PY, t.Pixel.PR = round3(t.Pixel.PX), round3(t.Pixel.PY), round3(t.Pixel.PR/s.g)
		}
		t.X, t.Y, t.R = unshrink(t.X), unshrink(t.Y), unshrink(t.R)
		for k, p := range t.Poly {
			t.Poly[k] = models.TablePoint{X: unshrink(p.X), Y: unshrink(p.Y)}
		}
	}
}
