package board9

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// N is the number of squares along a side; Lines the number of grid
// lines each way.
const (
	N     = 9
	Lines = N + 1
)

// Geometry is what the reader assumes of the board's face: the widths,
// in squares, that may lie between an outline found in the frame and the
// grid's outer line (the board's edge, the inner edge of a printed frame,
// the grid line itself). The reader tries each and keeps the grid that
// fits the frame best; a width within a third of a square of the truth
// is enough.
type Geometry struct {
	Borders []float64
}

// DefaultGeometry fits boards with a border of up to about 0.8 squares.
var DefaultGeometry = Geometry{Borders: []float64{0.5, 0.25, 0}}

// Grid is the board found in a frame: the image points (working pixels)
// of the 100 grid intersections and the homography fitted to them.
type Grid struct {
	// Points[j*Lines+i] is intersection (i, j): the corner between files
	// i-1 and i and rows j-1 and j (0, 0 is a1's outer corner).
	Points [Lines * Lines]point
	// Seen says which intersections were found in the frame (the others
	// are predicted by the homography).
	Seen  [Lines * Lines]bool
	H     homography
	found int
	score float64
}

// Found is the number of grid intersections seen in the frame.
func (g *Grid) Found() int { return g.found }

// Corner returns the image point of intersection (i, j), 0 <= i, j <= 9.
func (g *Grid) Corner(i, j int) (u, v float64) {
	p := g.Points[j*Lines+i]
	return p.X, p.Y
}

// At maps board point (x, y) (squares from a1's outer corner) to the
// image through the cell's four corners (bilinear: it follows a lens's
// remaining distortion, which one homography cannot).
func (g *Grid) At(x, y float64) point {
	i, j := min(max(int(math.Floor(x)), 0), N-1), min(max(int(math.Floor(y)), 0), N-1)
	fx, fy := x-float64(i), y-float64(j)
	p00, p10 := g.Points[j*Lines+i], g.Points[j*Lines+i+1]
	p01, p11 := g.Points[(j+1)*Lines+i], g.Points[(j+1)*Lines+i+1]
	return point{
		X: (1-fy)*((1-fx)*p00.X+fx*p10.X) + fy*((1-fx)*p01.X+fx*p11.X),
		Y: (1-fy)*((1-fx)*p00.Y+fx*p10.Y) + fy*((1-fx)*p01.Y+fx*p11.Y),
	}
}

// ErrNoBoard is returned when no 9x9 grid is found in the frame.
var ErrNoBoard = errors.New("no 9x9 board found in the frame")

// findGrid finds the board: each outline of the frame, under each border
// width of the geometry, gives a first homography, refined twice on the
// grid lines; the grid with the most intersections seen wins.
func findGrid(f *frame, geo Geometry) (*Grid, error) {
	qs, err := outlines(f)
	if err != nil {
		return nil, err
	}
	if len(geo.Borders) == 0 {
		geo = DefaultGeometry
	}
	var best *Grid
	bestScore := 0.0
	for _, q := range qs {
		for k := range q {
			q[k] = f.working(q[k])
		}
		q = orient(q)
		for _, b := range geo.Borders {
			board := []point{{-b, -b}, {N + b, -b}, {N + b, N + b}, {-b, N + b}}
			h, err := fitHomography(board, q[:])
			if err != nil {
				continue
			}
			g, score := refineGrid(f, h)
			if g != nil && score > bestScore {
				best, bestScore = g, score
			}
			if best != nil && best.found >= wholeGrid {
				return best, nil
			}
		}
	}
	if best == nil || best.found < Lines*Lines/3 {
		seen := 0
		if best != nil {
			seen = best.found
		}
		return nil, fmt.Errorf("%w (%d outlines tried, best grid: %d of 100 intersections seen)", ErrNoBoard, len(qs), seen)
	}
	return best, nil
}

// refineGrid looks for each grid intersection near where h puts it, fits
// a new homography to those found, and does it again in a narrower
// window. The score is the number of intersections that fit, plus their
// mean contrast.
func refineGrid(f *frame, h homography) (*Grid, float64) {
	var g *Grid
	for _, window := range []float64{0.35, 0.15} {
		pts, contrast := searchIntersections(f, h, window)
		var src, dst []point
		for k, p := range pts {
			if contrast[k] >= minContrast {
				src = append(src, point{float64(k % Lines), float64(k / Lines)})
				dst = append(dst, p)
			}
		}
		nh, kept, err := robustFit(src, dst)
		if err != nil || kept < 12 {
			return nil, 0
		}
		h = nh
		g = &Grid{H: h}
		var sumC float64
		for k := range pts {
			pred, ok := h.apply(point{float64(k % Lines), float64(k / Lines)})
			if !ok {
				return nil, 0
			}
			g.Points[k] = pred
			if contrast[k] >= minContrast && math.Hypot(pts[k].X-pred.X, pts[k].Y-pred.Y) < 0.12*cellSize(h, k) {
				g.Points[k], g.Seen[k] = pts[k], true
				g.found++
				sumC += contrast[k]
			}
		}
		if g.found > 0 {
			g.score = float64(g.found) + sumC/float64(g.found)
		}
	}
	return g, g.score
}

// wholeGrid is the number of intersections seen that ends the search: no
// other outline can fit better.
const wholeGrid = 97

// minContrast is the least relative darkness of a grid line for its
// intersection to count as seen.
const minContrast = 0.08

// cellSize is the image size (pixels) of a square next to intersection k.
func cellSize(h homography, k int) float64 {
	i, j := float64(k%Lines), float64(k/Lines)
	a, _ := h.apply(point{i, j})
	b, _ := h.apply(point{i + 1, j})
	c, _ := h.apply(point{i, j + 1})
	return (math.Hypot(b.X-a.X, b.Y-a.Y) + math.Hypot(c.X-a.X, c.Y-a.Y)) / 2
}

// robustFit fits a homography to the pairs, drops those more than three
// times the median residual (and more than a pixel) off, and fits again.
func robustFit(src, dst []point) (homography, int, error) {
	h, err := fitHomography(src, dst)
	if err != nil {
		return h, 0, err
	}
	for range 2 {
		res := make([]float64, len(src))
		for i := range src {
			p, _ := h.apply(src[i])
			res[i] = math.Hypot(p.X-dst[i].X, p.Y-dst[i].Y)
		}
		med := slices.Clone(res)
		slices.Sort(med)
		lim := math.Max(1, 3*med[len(med)/2])
		var s2, d2 []point
		for i := range src {
			if res[i] <= lim {
				s2, d2 = append(s2, src[i]), append(d2, dst[i])
			}
		}
		if len(s2) == len(src) {
			break
		}
		if h, err = fitHomography(s2, d2); err != nil {
			return h, 0, err
		}
		src, dst = s2, d2
	}
	return h, len(src), nil
}

// searchIntersections finds each grid line near where h puts it: for
// intersection (i, j), the darkest row of a short segment of the row line
// (and the darkest column of the file line) within window squares, on a
// board-aligned sampling of the frame. It returns the intersections'
// image points and the lines' contrast (the weaker of the two).
func searchIntersections(f *frame, h homography, window float64) ([Lines * Lines]point, [Lines * Lines]float64) {
	var pts [Lines * Lines]point
	var con [Lines * Lines]float64
	for k := range pts {
		i, j := k%Lines, k/Lines
		x, y := float64(i), float64(j)
		dy, cy := lineOffset(f, h, x, y, window, false, i, j)
		dx, cx := lineOffset(f, h, x, y, window, true, j, i)
		p, ok := h.apply(point{x + dx, y + dy})
		if !ok {
			continue
		}
		pts[k], con[k] = p, math.Min(cx, cy)
	}
	return pts, con
}

// lineOffset scans offsets d across a grid line through board point
// (x, y): the row line (vertical false: the segment runs along x, offsets
// along y) or the file line. The segment runs from 0.06 to 0.4 squares
// from the intersection, inward only at the board's edge; cross is the
// intersection's index across the line (0 or 9 for the outer lines, whose
// search reaches only a little outward, where a printed frame may lie).
// The line is the offset most like a thin dark ridge: darker than both
// sides a tenth of a square away (a piece, a frame band or an edge is
// dark on one side only). It returns the offset (to a fraction of a step)
// and the ridge's depth relative to the profile's median.
func lineOffset(f *frame, h homography, x, y, window float64, vertical bool, along, cross int) (float64, float64) {
	step := window / 20
	ridge := int(math.Round(0.1 / step)) // a tenth of a square
	lo, hi := -window, window
	if cross == 0 {
		lo = -math.Min(window, 0.12)
	}
	if cross == N {
		hi = math.Min(window, 0.12)
	}
	n0 := int(math.Round(lo/step)) - ridge
	n1 := int(math.Round(hi/step)) + ridge
	prof := make([]float64, n1-n0+1)
	for s := range prof {
		d := float64(s+n0) * step
		var sum float64
		n := 0
		for t := 0.06; t <= 0.4; t += 0.034 {
			for _, sg := range []float64{-1, 1} {
				if (along == 0 && sg < 0) || (along == N && sg > 0) {
					continue
				}
				bx, by := x+sg*t, y+d
				if vertical {
					bx, by = x+d, y+sg*t
				}
				p, ok := h.apply(point{bx, by})
				if !ok {
					continue
				}
				if v, ok := f.lum(p); ok {
					sum += v
					n++
				}
			}
		}
		if n == 0 {
			return 0, 0
		}
		prof[s] = sum / float64(n)
	}
	sorted := slices.Clone(prof)
	slices.Sort(sorted)
	med := sorted[len(sorted)/2]
	if med <= 0 {
		return 0, 0
	}
	depth := func(s int) float64 { return math.Min(prof[s-ridge], prof[s+ridge]) - prof[s] }
	best, bestD := -1, math.Inf(-1)
	for s := ridge; s < len(prof)-ridge; s++ {
		if d := depth(s); d > bestD {
			best, bestD = s, d
		}
	}
	off := float64(best + n0)
	if best > ridge && best < len(prof)-ridge-1 {
		a, b, c := depth(best-1), bestD, depth(best+1)
		if den := a - 2*b + c; den < 0 {
			off += 0.5 * (a - c) / den
		}
	}
	return off * step, bestD / med
}
