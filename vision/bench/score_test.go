package bench

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision/synth"
)

// Two stacked disks whose centres are close: the first detection is
// nearest to a but may also stand for b; the second may stand only for a.
// Taking the nearest pair first pairs one disk; both can be paired.
func TestMatchingPairsAsManyDisksAsCanBePaired(t *testing.T) {
	truth := []models.Disk{{ID: "a", X: 0, Y: 0, R: 2}, {ID: "b", X: 1.1, Y: 0, R: 2}}
	got := []models.Disk{{ID: "x", X: 0.5, Y: 0, R: 2}, {ID: "y", X: -0.7, Y: 0, R: 2}}
	m := matchDisks(truth, got)
	if len(m) != 2 || m[0] != 1 || m[1] != 0 {
		t.Errorf("got pairs %v (true -> detected), want map[0:1 1:0]", m)
	}
}

// Among matchings of as many pairs, the one of least total distance.
func TestMatchingPrefersTheNearerPairs(t *testing.T) {
	truth := []models.Disk{{X: 0, Y: 0, R: 4}, {X: 1, Y: 0, R: 4}}
	got := []models.Disk{{X: 1.1, Y: 0, R: 4}, {X: 0.1, Y: 0, R: 4}}
	if m := matchDisks(truth, got); len(m) != 2 || m[0] != 1 || m[1] != 0 {
		t.Errorf("got pairs %v, want map[0:1 1:0]", m)
	}
	if m := Match(0, 3, func(int, int) (float64, bool) { return 0, true }); len(m) != 0 {
		t.Errorf("nothing to pair: got %v, want no pair", m)
	}
	if m := Match(3, 1, func(i, _ int) (float64, bool) { return float64(3 - i), true }); len(m) != 1 || m[2] != 0 {
		t.Errorf("three for one: got %v, want the cheapest, map[2:0]", m)
	}
}

// A true overlapping pair one of whose disks is not found is not ordered
// right: its order was not given.
func TestStackingCountsPairsWithAMissedDisk(t *testing.T) {
	truth := models.Layout{Disks: []models.Disk{
		{ID: "a", X: 0, Y: 0, R: 2, Z: 0}, {ID: "b", X: 3, Y: 0, R: 2, Z: 1},
		{ID: "c", X: 20, Y: 0, R: 2, Z: 0}, {ID: "d", X: 23, Y: 0, R: 2, Z: 1},
	}}
	got := models.Layout{Disks: []models.Disk{
		{ID: "x", X: 0, Y: 0, R: 2, Z: 0}, {ID: "y", X: 3, Y: 0, R: 2, Z: 1},
		{ID: "z", X: 20, Y: 0, R: 2, Z: 0}, // d missed
	}}
	var d detectionTally
	d.score(truth, got)
	if d.orderPairs != 2 || d.orderRight != 1 || d.orderFound != 1 {
		t.Errorf("got %d right of %d pairs (%d found), want 1 of 2 (1 found)", d.orderRight, d.orderPairs, d.orderFound)
	}
	det := tierRun{det: d}.report(synth.Medium, Config{Detector: func(*calibration.Calibration) (Detector, error) { return nil, nil }}).Detection
	if det.StackingOrder != 0.5 || det.StackingOrderFound != 1 || det.OverlappingPairs != 2 || det.PairsFound != 1 {
		t.Errorf("got order %v (found %v) over %d pairs (%d found), want 0.5 (1) over 2 (1)", det.StackingOrder, det.StackingOrderFound, det.OverlappingPairs, det.PairsFound)
	}
}

// A frame the detector refuses counts its overlapping pairs as not
// ordered right, as it counts its disks and tokens as missed.
func TestAFailedFrameCountsItsPairs(t *testing.T) {
	truth := models.Layout{
		Disks:  []models.Disk{{ID: "a", X: 0, Y: 0, R: 2, Z: 0}, {ID: "b", X: 3, Y: 0, R: 2, Z: 1}},
		Tokens: []models.Token{{ID: "t", X: 9, Y: 9, R: 0.8}},
	}
	var d detectionTally
	d.add(truth, models.Layout{}, errors.New("no frame"), time.Millisecond, nil)
	if d.failed != 1 || d.diskFN != 2 || d.tokFN != 1 || d.orderPairs != 1 || d.orderRight != 0 {
		t.Errorf("got failed %d, disks missed %d, tokens missed %d, %d of %d pairs right; want 1, 2, 1, 0 of 1",
			d.failed, d.diskFN, d.tokFN, d.orderRight, d.orderPairs)
	}
}

// ms per stage is the mean over the frames whose stages were timed, not
// over frames the detector refused.
func TestStageTimesAreMeansOverTimedFrames(t *testing.T) {
	var d detectionTally
	d.add(models.Layout{}, models.Layout{}, errors.New("no frame"), time.Millisecond, nil)
	d.add(models.Layout{}, models.Layout{}, nil, 10*time.Millisecond, []Stage{{Name: "all", Took: 10 * time.Millisecond}})
	rep := tierRun{det: d}.report(synth.Easy, Config{Detector: func(*calibration.Calibration) (Detector, error) { return nil, nil }})
	st := rep.Detection.StageMS
	if len(st) != 1 || st[0].MS != 10 {
		t.Errorf("got %+v, want all: 10 ms (one frame timed)", st)
	}
	if rep.Detection.Frames != 2 || rep.Detection.Failed != 1 {
		t.Errorf("got %d frames, %d failed; want 2 and 1", rep.Detection.Frames, rep.Detection.Failed)
	}
}

// Match against every matching, on small random problems: as many pairs,
// and no more total cost, as the best.
func TestMatchAgreesWithExhaustiveSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n, m := rng.IntN(5), rng.IntN(5)
		c := make([][]float64, n)
		ok := make([][]bool, n)
		for i := range n {
			c[i], ok[i] = make([]float64, m), make([]bool, m)
			for j := range m {
				c[i][j], ok[i][j] = rng.Float64()*10, rng.IntN(3) > 0
			}
		}
		got := Match(n, m, func(i, j int) (float64, bool) { return c[i][j], ok[i][j] })
		var gotCost float64
		seen := map[int]bool{}
		for i, j := range got {
			if !ok[i][j] || seen[j] {
				t.Fatalf("trial %d: got %v, which pairs %d with %d unallowed or twice", trial, got, i, j)
			}
			seen[j] = true
			gotCost += c[i][j]
		}
		bestN, bestCost := 0, 0.0
		var search func(i int, used []bool, pairs int, cost float64)
		search = func(i int, used []bool, pairs int, cost float64) {
			if i == n {
				if pairs > bestN || pairs == bestN && cost < bestCost {
					bestN, bestCost = pairs, cost
				}
				return
			}
			search(i+1, used, pairs, cost)
			for j := range m {
				if ok[i][j] && !used[j] {
					used[j] = true
					search(i+1, used, pairs+1, cost+c[i][j])
					used[j] = false
				}
			}
		}
		search(0, make([]bool, m), 0, 0)
		if len(got) != bestN || gotCost > bestCost+1e-9 {
			t.Fatalf("trial %d: got %d pairs costing %v, want %d costing %v", trial, len(got), gotCost, bestN, bestCost)
		}
	}
}
