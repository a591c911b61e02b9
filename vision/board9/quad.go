package board9

import (
	"fmt"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// outlines returns the large four-sided outlines of the frame (in the
// frame's own pixels), largest first: the board's edge, the inner edge of
// its printed frame and its outer grid line are the usual ones. OpenCV
// finds the edges and their contours; the rest is plain Go.
func outlines(f *frame) ([][4]point, error) {
	edges := gocv.NewMat()
	defer edges.Close()
	if err := cannyEdges(f, &edges); err != nil {
		return nil, err
	}
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	thick := gocv.NewMat()
	defer thick.Close()
	gocv.Dilate(edges, &thick, kernel)
	// Thin edges keep a board's outline apart from its grid at a small
	// scale; thickened ones close an outline broken by noise. Both give
	// candidates.
	var polys [][]point
	for _, m := range []gocv.Mat{edges, thick} {
		polys = append(polys, contourPoints(m)...)
	}
	// The grid's thin dark lines alone (a black-hat filter keeps what is
	// darker than its surroundings and narrower than about a tenth of a
	// square: not the pieces, not a printed frame): their mesh's outline
	// is the outer grid line, whatever the board's edge looks like.
	lines := gocv.NewMat()
	defer lines.Close()
	if err := gridLines(f, &lines); err != nil {
		return nil, err
	}
	polys = append(polys, contourPoints(lines)...)
	return quadsOf(polys, float64(f.w*f.h)), nil
}

// contourPoints lists the contours of a binary image.
func contourPoints(m gocv.Mat) [][]point {
	contours := gocv.FindContours(m, gocv.RetrievalList, gocv.ChainApproxSimple)
	defer contours.Close()
	var polys [][]point
	for i := range contours.Size() {
		pts := contours.At(i).ToPoints()
		if len(pts) >= 4 {
			polys = append(polys, toPoints(pts))
		}
	}
	return polys
}

// gridLines writes into dst the thin dark lines of the frame, binarised.
func gridLines(f *frame, dst *gocv.Mat) error {
	g, err := gocv.NewMatFromBytes(f.h, f.w, gocv.MatTypeCV8U, f.gray8())
	if err != nil {
		return fmt.Errorf("board9: image to OpenCV: %w", err)
	}
	defer g.Close()
	k := max(5, min(f.w, f.h)/80) | 1
	kernel := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(k, k))
	defer kernel.Close()
	hat := gocv.NewMat()
	defer hat.Close()
	gocv.MorphologyEx(g, &hat, gocv.MorphBlackhat, kernel)
	gocv.Threshold(hat, dst, 0, 255, gocv.ThresholdBinary|gocv.ThresholdOtsu)
	return nil
}

// cannyEdges writes the edges of the frame's luminance into dst.
func cannyEdges(f *frame, dst *gocv.Mat) error {
	g, err := gocv.NewMatFromBytes(f.h, f.w, gocv.MatTypeCV8U, f.gray8())
	if err != nil {
		return fmt.Errorf("board9: image to OpenCV: %w", err)
	}
	defer g.Close()
	blur := gocv.NewMat()
	defer blur.Close()
	gocv.GaussianBlur(g, &blur, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
	gocv.Canny(blur, dst, 20, 60)
	return nil
}

func toPoints(ps []image.Point) []point {
	out := make([]point, len(ps))
	for i, p := range ps {
		out[i] = point{float64(p.X), float64(p.Y)}
	}
	return out
}

// quadsOf turns contours into candidate board outlines: each contour's
// convex hull, simplified, with its four longest sides extended to meet
// (so a chit lying across one side or a cut corner does not spoil it);
// outlines of less than 3 % of the frame, nearly degenerate ones and near
// duplicates are dropped. At most 8, largest first.
func quadsOf(polys [][]point, frameArea float64) [][4]point {
	type cand struct {
		q    [4]point
		area float64
	}
	var cands []cand
	for _, p := range polys {
		hull := convexHull(p)
		if len(hull) < 4 || math.Abs(polyArea(hull)) < 0.03*frameArea {
			continue
		}
		simple := simplify(hull, 0.015*perimeter(hull))
		q, ok := quadFrom(simple)
		if !ok {
			continue
		}
		a := math.Abs(polyArea(q[:]))
		if a < 0.03*frameArea || a > 0.995*frameArea || !convexQuad(q) {
			continue
		}
		cands = append(cands, cand{q, a})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.area > b.area:
			return -1
		case a.area < b.area:
			return 1
		}
		return 0
	})
	var out [][4]point
	for _, c := range cands {
		dup := false
		for _, o := range out {
			if quadDistance(c.q, o) < 0.01*math.Sqrt(frameArea) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, c.q)
		}
		if len(out) == 8 {
			break
		}
	}
	return out
}

// convexHull is the hull of ps, counter-clockwise in a y-up frame
// (Andrew's monotone chain).
func convexHull(ps []point) []point {
	s := slices.Clone(ps)
	slices.SortFunc(s, func(a, b point) int {
		if a.X != b.X {
			return cmpFloat(a.X, b.X)
		}
		return cmpFloat(a.Y, b.Y)
	})
	s = slices.Compact(s)
	if len(s) < 3 {
		return s
	}
	cross := func(o, a, b point) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []point
	for _, p := range s {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	lower := len(h) + 1
	for i := len(s) - 2; i >= 0; i-- {
		p := s[i]
		for len(h) >= lower && cross(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	return h[:len(h)-1]
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// polyArea is the signed area (shoelace).
func polyArea(p []point) float64 {
	var a float64
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	return a / 2
}

func perimeter(p []point) float64 {
	var s float64
	for i := range p {
		j := (i + 1) % len(p)
		s += math.Hypot(p[j].X-p[i].X, p[j].Y-p[i].Y)
	}
	return s
}

// simplify drops the vertices of the closed polygon p that lie within eps
// of the line through their neighbours, the least significant first.
func simplify(p []point, eps float64) []point {
	q := slices.Clone(p)
	for len(q) > 4 {
		best, bestD := -1, math.Inf(1)
		for i := range q {
			a, b, c := q[(i+len(q)-1)%len(q)], q[i], q[(i+1)%len(q)]
			d := lineDistance(a, c, b)
			if d < bestD {
				best, bestD = i, d
			}
		}
		if bestD > eps {
			break
		}
		q = slices.Delete(q, best, best+1)
	}
	return q
}

// lineDistance is the distance from p to the line through a and b.
func lineDistance(a, b, p point) float64 {
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	if l == 0 {
		return math.Hypot(p.X-a.X, p.Y-a.Y)
	}
	return math.Abs((b.X-a.X)*(a.Y-p.Y)-(a.X-p.X)*(b.Y-a.Y)) / l
}

// quadFrom finds the four sides of a board in a convex polygon of 4 to
// 12 sides: sides lying on one line (a side broken by a chit lying across
// it, or cut short at a corner) are taken together; the four lines with
// the most length are kept, in their order, and neighbouring ones meet at
// the corners.
func quadFrom(p []point) ([4]point, bool) {
	var q [4]point
	if len(p) < 4 || len(p) > 12 {
		return q, false
	}
	if len(p) == 4 {
		copy(q[:], p)
		return q, true
	}
	type line struct {
		a, b   point // the longest side on it
		length float64
		first  int // its first side, for the order
	}
	var lines []line
	tol := 0.01 * perimeter(p)
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		joined := false
		for k := range lines {
			ln := &lines[k]
			if lineDistance(ln.a, ln.b, a) < tol && lineDistance(ln.a, ln.b, b) < tol {
				if l > math.Hypot(ln.b.X-ln.a.X, ln.b.Y-ln.a.Y) {
					ln.a, ln.b = a, b
				}
				ln.length += l
				joined = true
				break
			}
		}
		if !joined {
			lines = append(lines, line{a: a, b: b, length: l, first: i})
		}
	}
	if len(lines) < 4 {
		return q, false
	}
	slices.SortFunc(lines, func(x, y line) int { return cmpFloat(y.length, x.length) })
	keep := slices.Clone(lines[:4])
	slices.SortFunc(keep, func(x, y line) int { return x.first - y.first })
	for k := range 4 {
		x, ok := intersect(keep[k].a, keep[k].b, keep[(k+1)%4].a, keep[(k+1)%4].b)
		if !ok {
			return q, false
		}
		q[(k+1)%4] = x
	}
	return q, true
}

// intersect is where the line through a1, a2 meets the one through b1, b2.
func intersect(a1, a2, b1, b2 point) (point, bool) {
	d := (a2.X-a1.X)*(b2.Y-b1.Y) - (a2.Y-a1.Y)*(b2.X-b1.X)
	if math.Abs(d) < 1e-9 {
		return point{}, false
	}
	t := ((b1.X-a1.X)*(b2.Y-b1.Y) - (b1.Y-a1.Y)*(b2.X-b1.X)) / d
	return point{a1.X + t*(a2.X-a1.X), a1.Y + t*(a2.Y-a1.Y)}, true
}

// convexQuad reports whether q is convex with no angle sharper than 25
// degrees and no side under 0.3 of the longest (a board seen at up to
// 35 degrees of tilt is not a sliver).
func convexQuad(q [4]point) bool {
	longest, shortest := 0.0, math.Inf(1)
	for i := range 4 {
		l := math.Hypot(q[(i+1)%4].X-q[i].X, q[(i+1)%4].Y-q[i].Y)
		longest, shortest = math.Max(longest, l), math.Min(shortest, l)
	}
	if shortest < 0.3*longest {
		return false
	}
	sign := 0.0
	for i := range 4 {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		cr := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		if cr == 0 || (sign != 0 && math.Signbit(cr) != math.Signbit(sign)) {
			return false
		}
		sign = cr
		u, v := point{a.X - b.X, a.Y - b.Y}, point{c.X - b.X, c.Y - b.Y}
		cos := (u.X*v.X + u.Y*v.Y) / (math.Hypot(u.X, u.Y) * math.Hypot(v.X, v.Y))
		if math.Acos(math.Max(-1, math.Min(1, cos))) < 25*math.Pi/180 {
			return false
		}
	}
	return true
}

// quadDistance is the largest distance between matching corners of two
// outlines, over the four ways to match them in order.
func quadDistance(a, b [4]point) float64 {
	best := math.Inf(1)
	for s := range 4 {
		m := 0.0
		for i := range 4 {
			j := (i + s) % 4
			m = math.Max(m, math.Hypot(a[i].X-b[j].X, a[i].Y-b[j].Y))
		}
		best = math.Min(best, m)
	}
	return best
}

// orient orders an outline's corners as the board's a1, i1, i9, a9 corners
// by the frame convention: row 1 along the side nearest the bottom of the
// frame, file a at its left end.
func orient(q [4]point) [4]point {
	if polyArea(q[:]) > 0 { // y down: a1, i1, i9, a9 run with negative area
		q[1], q[3] = q[3], q[1]
	}
	bottom, best := 0, math.Inf(-1)
	for i := range 4 {
		j := (i + 1) % 4
		if m := q[i].Y + q[j].Y; m > best {
			bottom, best = i, m
		}
	}
	var out [4]point
	for k := range 4 {
		out[k] = q[(bottom+k)%4]
	}
	return out
}
