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
	"tableref/vision/track"
)

// detectionTally gathers detection measurements over the scenes of a tier.
type detectionTally struct {
	frames                     int
	failed                     int
	total                      time.Duration
	staged                     int // frames whose stages were timed
	stages                     map[string]time.Duration
	stageOrder                 []string
	diskTP, diskFP, diskFN     int
	centreMM, radiusMM, edgeMM []float64
	orderRight, orderPairs     int
	orderFound                 int // overlapping pairs whose two disks were found
	tokTP, tokFP, tokFN        int
	assignRight, assignMatched int
	kindRight                  int // matched tokens of the right kind
	rimRight, rimMatched       int // found disks whose rim colour is the true one, of those with one
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
	var stages []Stage
	if s, ok := det.(Staged); ok && err == nil {
		stages = s.LastStages()
	}
	d.add(sc.Truth, got, err, took, stages)
	return nil
}

// add counts one frame: the detector's layout got, or its error (every
// disk, token and overlapping pair of the truth then missed), the time
// it took and its stages.
func (d *detectionTally) add(truth, got models.Layout, err error, took time.Duration, stages []Stage) {
	d.frames++
	d.total += took
	if err != nil {
		d.failed++
		d.score(truth, models.Layout{})
		return
	}
	if stages != nil {
		d.staged++
		d.addStages(stages)
	}
	d.score(truth, got)
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
		if t.RimColour != "" {
			d.rimMatched++
			if g.RimColour == t.RimColour {
				d.rimRight++
			}
		}
	}
	for ti, gi := range match {
		for tj, gj := range match {
			if tj <= ti {
				continue
			}
			a, b := truth.Disks[ti], truth.Disks[tj]
			ga, gb := got.Disks[gi], got.Disks[gj]
			d.edgeMM = append(d.edgeMM, 10*math.Abs(edge(a, b)-edge(ga, gb)))
		}
	}
	d.scoreOrder(truth.Disks, got.Disks, match)
	d.scoreTokens(truth, got, match)
}

// scoreOrder counts every overlapping pair of the truth (of different
// levels): right when both disks were found and the detected levels
// order them as the true ones do. A pair with a disk not found was not
// ordered, so it is not right.
func (d *detectionTally) scoreOrder(truth, got []models.Disk, match map[int]int) {
	for i, a := range truth {
		for j := i + 1; j < len(truth); j++ {
			b := truth[j]
			if edge(a, b) >= 0 || a.Z == b.Z {
				continue
			}
			d.orderPairs++
			gi, okA := match[i]
			gj, okB := match[j]
			if !okA || !okB {
				continue
			}
			d.orderFound++
			ga, gb := got[gi], got[gj]
			if (a.Z > b.Z) == (ga.Z > gb.Z) && ga.Z != gb.Z {
				d.orderRight++
			}
		}
	}
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

// matchDisks pairs true and detected disks whose centres are less than
// half the true radius apart, one to one (Match). It returns true index
// -> detected index.
func matchDisks(truth, got []models.Disk) map[int]int {
	return Match(len(truth), len(got), func(i, j int) (float64, bool) {
		d := math.Hypot(float64(truth[i].X-got[j].X), float64(truth[i].Y-got[j].Y))
		return d, d < 0.5*float64(truth[i].R)
	})
}

// matchTokens pairs tokens whose centres are within the true token's
// radius (at least 0.5 cm), one to one (Match).
func matchTokens(truth, got []models.Token) map[int]int {
	return Match(len(truth), len(got), func(i, j int) (float64, bool) {
		d := math.Hypot(float64(truth[i].X-got[j].X), float64(truth[i].Y-got[j].Y))
		return d, d < math.Max(0.5, float64(truth[i].R))
	})
}

// Match pairs n true items with m detected ones, one to one: as many
// pairs as can be made, and of those matchings the one of least total
// cost. cost(i, j) says whether true i and detected j may pair, and at
// what cost (not negative). It returns true index -> detected index.
// (Taking the cheapest pair first may pair fewer: a detection nearest
// to one of two close disks may be the only one the other could take.)
func Match(n, m int, cost func(i, j int) (float64, bool)) map[int]int {
	out := map[int]int{}
	if n == 0 || m == 0 {
		return out
	}
	// Leaving a true item and a detection unpaired costs more than all
	// allowed pairs together, so as many pairs as can be are made
	// (track.Assign: the Hungarian method).
	cst := make([][]float64, n)
	sum := 0.0
	for i := range n {
		cst[i] = make([]float64, m)
		for j := range m {
			v, ok := cost(i, j)
			if !ok {
				v = math.Inf(1) // never paired
			} else {
				sum += v
			}
			cst[i][j] = v
		}
	}
	big := 1 + 2*sum
	miss, spare := make([]float64, n), make([]float64, m)
	for i := range miss {
		miss[i] = big
	}
	for j := range spare {
		spare[j] = big
	}
	for i, j := range track.Assign(cst, miss, spare) {
		if j >= 0 {
			out[i] = j
		}
	}
	return out
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
