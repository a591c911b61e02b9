package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision/synth"
)

// detectionTally gathers detection measurements over the scenes of a tier.
type detectionTally struct {
	frames                     int
	failed                     int
	total                      time.Duration
	stages                     map[string]time.Duration
	stageOrder                 []string
	diskTP, diskFP, diskFN     int
	centreMM, radiusMM, edgeMM []float64
	orderRight, orderPairs     int
	tokTP, tokFP, tokFN        int
	assignRight, assignMatched int
	kindRight                  int // matched tokens of the right kind
}

func (d *detectionTally) measure(cfg Config, sc *synth.Scene, cal *calibration.Calibration) error {
	det, err := cfg.Detector(cal)
	if err != nil {
		return fmt.Errorf("bench: making the detector: %w", err)
	}
	if c, ok := det.(io.Closer); ok {
		defer c.Close()
	}
	img, err := cfg.photograph(sc)
	if err != nil {
		return fmt.Errorf("bench: rendering seed %d: %w", sc.Seed, err)
	}
	start := time.Now()
	got, err := det.Detect(img)
	took := time.Since(start)
	d.frames++
	d.total += took
	if err != nil {
		d.failed++
		d.diskFN += len(sc.Truth.Disks)
		d.tokFN += len(sc.Truth.Tokens)
		return nil
	}
	if s, ok := det.(Staged); ok {
		d.addStages(s.LastStages())
	}
	d.score(sc.Truth, got)
	return nil
}

func (d *detectionTally) addStages(st []Stage) {
	if d.stages == nil {
		d.stages = map[string]time.Duration{}
	}
	for _, s := range st {
		if _, ok := d.stages[s.Name]; !ok {
			d.stageOrder = append(d.stageOrder, s.Name)
		}
		d.stages[s.Name] += s.Took
	}
}

// score compares a detected layout with the truth.
func (d *detectionTally) score(truth, got models.Layout) {
	match := matchDisks(truth.Disks, got.Disks)
	d.diskTP += len(match)
	d.diskFP += len(got.Disks) - len(match)
	d.diskFN += len(truth.Disks) - len(match)
	for ti, gi := range match {
		t, g := truth.Disks[ti], got.Disks[gi]
		d.centreMM = append(d.centreMM, 10*math.Hypot(float64(t.X-g.X), float64(t.Y-g.Y)))
		d.radiusMM = append(d.radiusMM, 10*math.Abs(float64(t.R-g.R)))
	}
	for ti, gi := range match {
		for tj, gj := range match {
			if tj <= ti {
				continue
			}
			a, b := truth.Disks[ti], truth.Disks[tj]
			ga, gb := got.Disks[gi], got.Disks[gj]
			d.edgeMM = append(d.edgeMM, 10*math.Abs(edge(a, b)-edge(ga, gb)))
			if edge(a, b) < 0 && a.Z != b.Z {
				d.orderPairs++
				if (a.Z > b.Z) == (ga.Z > gb.Z) && ga.Z != gb.Z {
					d.orderRight++
				}
			}
		}
	}
	d.scoreTokens(truth, got, match)
}

func edge(a, b models.Disk) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) - float64(a.R+b.R)
}

func (d *detectionTally) scoreTokens(truth, got models.Layout, diskMatch map[int]int) {
	// Detected disk id -> true disk id.
	ids := map[string]string{}
	for ti, gi := range diskMatch {
		ids[got.Disks[gi].ID] = truth.Disks[ti].ID
	}
	tm := matchTokens(truth.Tokens, got.Tokens)
	d.tokTP += len(tm)
	d.tokFP += len(got.Tokens) - len(tm)
	d.tokFN += len(truth.Tokens) - len(tm)
	for ti, gi := range tm {
		if got.Tokens[gi].Kind == truth.Tokens[ti].Kind {
			d.kindRight++
		}
		var mapped []string
		for _, id := range got.Tokens[gi].Touches {
			if t, ok := ids[id]; ok {
				mapped = append(mapped, t)
			} else {
				mapped = append(mapped, "?"+id)
			}
		}
		want := slices.Clone(truth.Tokens[ti].Touches)
		slices.Sort(mapped)
		slices.Sort(want)
		d.assignMatched++
		if slices.Equal(mapped, want) {
			d.assignRight++
		}
	}
}

// matchDisks pairs true and detected disks, nearest centres first, a pair
// counting only when the centres are less than half the true radius apart.
// It returns true index -> detected index.
func matchDisks(truth, got []models.Disk) map[int]int {
	return greedy(len(truth), len(got), func(i, j int) (float64, bool) {
		d := math.Hypot(float64(truth[i].X-got[j].X), float64(truth[i].Y-got[j].Y))
		return d, d < 0.5*float64(truth[i].R)
	})
}

// matchTokens pairs tokens whose centres are within the true token's
// radius (at least 0.5 cm).
func matchTokens(truth, got []models.Token) map[int]int {
	return greedy(len(truth), len(got), func(i, j int) (float64, bool) {
		d := math.Hypot(float64(truth[i].X-got[j].X), float64(truth[i].Y-got[j].Y))
		return d, d < math.Max(0.5, float64(truth[i].R))
	})
}

func greedy(n, m int, cost func(i, j int) (float64, bool)) map[int]int {
	type pair struct {
		i, j int
		c    float64
	}
	var pairs []pair
	for i := range n {
		for j := range m {
			if c, ok := cost(i, j); ok {
				pairs = append(pairs, pair{i, j, c})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int { return cmpFloat(a.c, b.c) })
	out := map[int]int{}
	used := map[int]bool{}
	for _, p := range pairs {
		if _, ok := out[p.i]; ok || used[p.j] {
			continue
		}
		out[p.i] = p.j
		used[p.j] = true
	}
	return out
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

func f1(tp, fp, fn int) float64 {
	if tp == 0 {
		return 0
	}
	p := float64(tp) / float64(tp+fp)
	r := float64(tp) / float64(tp+fn)
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}
