package vision

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Circle is a circle in pixels: centre (X, Y), radius R.
type Circle struct{ X, Y, R float64 }

// ParseCircleTruth reads a ground-truth file of the circle-detection data
// set (shared/realdata/circle-dataset-mini/FORMAT.md): a count, then one
// "x y r" line per circle, in pixels.
func ParseCircleTruth(r io.Reader) ([]Circle, error) {
	sc := bufio.NewScanner(r)
	var lines []string
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("ground truth: empty file")
	}
	n, err := strconv.Atoi(lines[0])
	if err != nil || n < 0 || n > 100000 {
		return nil, fmt.Errorf("ground truth line 1: want the number of circles, got %q", lines[0])
	}
	if len(lines)-1 != n {
		return nil, fmt.Errorf("ground truth: %d circles announced, %d lines follow", n, len(lines)-1)
	}
	out := make([]Circle, n)
	for i, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 3 {
			return nil, fmt.Errorf("ground truth line %d: want x y r, got %q", i+2, l)
		}
		var v [3]float64
		for k := range 3 {
			v[k], err = strconv.ParseFloat(f[k], 64)
			if err != nil || math.IsNaN(v[k]) || math.IsInf(v[k], 0) {
				return nil, fmt.Errorf("ground truth line %d: %q is not a number", i+2, f[k])
			}
		}
		if v[2] <= 0 {
			return nil, fmt.Errorf("ground truth line %d: radius %v must be positive", i+2, v[2])
		}
		out[i] = Circle{v[0], v[1], v[2]}
	}
	return out, nil
}

// OuterCircles drops every circle lying inside another one (the inner
// edge of a rim, an inner ring): a disk detector reports outer rims.
func OuterCircles(cs []Circle) []Circle {
	var out []Circle
	for i, c := range cs {
		inside := false
		for j, o := range cs {
			if i != j && o.R > c.R && math.Hypot(c.X-o.X, c.Y-o.Y)+c.R <= o.R+0.05*o.R {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, c)
		}
	}
	return out
}

// CircleIoU returns the area of the intersection of two circles over the
// area of their union.
func CircleIoU(a, b Circle) float64 {
	d := math.Hypot(a.X-b.X, a.Y-b.Y)
	aa, ab := math.Pi*a.R*a.R, math.Pi*b.R*b.R
	var inter float64
	switch {
	case d >= a.R+b.R:
		inter = 0
	case d <= math.Abs(a.R-b.R):
		inter = math.Min(aa, ab)
	default:
		r1, r2 := a.R, b.R
		al := math.Acos((d*d + r1*r1 - r2*r2) / (2 * d * r1))
		be := math.Acos((d*d + r2*r2 - r1*r1) / (2 * d * r2))
		inter = r1*r1*(al-math.Sin(2*al)/2) + r2*r2*(be-math.Sin(2*be)/2)
	}
	return inter / (aa + ab - inter)
}

// Score is precision, recall and F of a detection against ground truth.
type Score struct {
	Detected, Truth, Matched int
	Precision, Recall, F     float64
}

// Add returns the sum of two scores, with the rates recomputed.
func (s Score) Add(o Score) Score {
	return newScore(s.Detected+o.Detected, s.Truth+o.Truth, s.Matched+o.Matched)
}

func newScore(det, truth, tp int) Score {
	s := Score{Detected: det, Truth: truth, Matched: tp}
	if det > 0 {
		s.Precision = float64(tp) / float64(det)
	}
	if truth > 0 {
		s.Recall = float64(tp) / float64(truth)
	}
	if s.Precision+s.Recall > 0 {
		s.F = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
	return s
}

// ScoreCircles matches detections to ground truth one to one, best overlap
// first, counting a match at an IoU of at least minIoU.
func ScoreCircles(det, truth []Circle, minIoU float64) Score {
	type pair struct {
		i, j int
		iou  float64
	}
	var pairs []pair
	for i, d := range det {
		for j, t := range truth {
			if iou := CircleIoU(d, t); iou >= minIoU {
				pairs = append(pairs, pair{i, j, iou})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int { return int(math.Copysign(1, b.iou-a.iou)) })
	usedD, usedT := map[int]bool{}, map[int]bool{}
	tp := 0
	for _, p := range pairs {
		if !usedD[p.i] && !usedT[p.j] {
			usedD[p.i], usedT[p.j] = true, true
			tp++
		}
	}
	return newScore(len(det), len(truth), tp)
}
