package track

import (
	"math"
	"slices"
	"testing"
)

func TestAssignFindsTheCheapestPairing(t *testing.T) {
	inf := forbidden
	cases := []struct {
		name        string
		cost        [][]float64
		miss, spare []float64
		want        []int
	}{
		{"square, crossing is cheaper", [][]float64{{4, 1}, {2, 6}}, []float64{50, 50}, []float64{50, 50}, []int{1, 0}},
		{"a row left out when pairing costs more than missing", [][]float64{{1, 9}, {8, 30}}, []float64{5, 5}, []float64{5, 5}, []int{0, -1}},
		{"forbidden pairs are never made", [][]float64{{inf, inf}, {inf, 2}}, []float64{50, 50}, []float64{50, 50}, []int{-1, 1}},
		{"more columns than rows", [][]float64{{3, 1, 2}}, []float64{50}, []float64{50, 50, 50}, []int{1}},
		{"no rows", nil, nil, []float64{5}, []int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Assign(c.cost, c.miss, c.spare); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// brute returns the least total cost over every pairing, by enumeration.
func brute(cost [][]float64, miss, spare []float64) float64 {
	n, m := len(miss), len(spare)
	best := math.Inf(1)
	used := make([]bool, m)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == n {
			for j := range m {
				if !used[j] {
					sum += spare[j]
				}
			}
			best = math.Min(best, sum)
			return
		}
		rec(i+1, sum+miss[i])
		for j := range m {
			if !used[j] && cost[i][j] < forbidden {
				used[j] = true
				rec(i+1, sum+cost[i][j])
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

func TestAssignMatchesBruteForce(t *testing.T) {
	seed := uint64(1)
	next := func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / float64(1<<53)
	}
	for trial := range 200 {
		n, m := 1+int(next()*4), 1+int(next()*4)
		cost := make([][]float64, n)
		for i := range cost {
			cost[i] = make([]float64, m)
			for j := range cost[i] {
				cost[i][j] = 10 * next()
				if next() < 0.2 {
					cost[i][j] = forbidden
				}
			}
		}
		miss, spare := make([]float64, n), make([]float64, m)
		for i := range miss {
			miss[i] = 3 + 5*next()
		}
		for j := range spare {
			spare[j] = 3 + 5*next()
		}
		got := Assign(cost, miss, spare)
		sum := 0.0
		usedCol := make([]bool, m)
		for i, j := range got {
			if j < 0 {
				sum += miss[i]
				continue
			}
			usedCol[j] = true
			sum += cost[i][j]
		}
		for j := range m {
			if !usedCol[j] {
				sum += spare[j]
			}
		}
		if want := brute(cost, miss, spare); math.Abs(sum-want) > 1e-9 {
			t.Fatalf("trial %d: got total %.4f (%v), want %.4f", trial, sum, got, want)
		}
	}
}
