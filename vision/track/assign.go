package track

import "math"

// forbidden is the cost of a pairing the rules exclude.
const forbidden = 1e9

// Assign solves the rectangular assignment problem: it pairs rows with
// columns to minimise the total cost, where every row may instead stay
// unpaired at cost miss[i] and every column at cost spare[j]. It returns,
// for each row, its column or -1. Pairs costing forbidden or more are
// never made. Hungarian method on the square (n+m) matrix, O((n+m)^3).
func Assign(cost [][]float64, miss, spare []float64) []int {
	n, m := len(miss), len(spare)
	size := n + m
	big := func(i, j int) float64 {
		switch {
		case i < n && j < m:
			return math.Min(cost[i][j], forbidden)
		case i < n:
			if j-m == i {
				return miss[i]
			}
			return forbidden
		case j < m:
			if i-n == j {
				return spare[j]
			}
			return forbidden
		}
		return 0
	}
	// Potentials u (rows), v (columns); p[j] is the row paired with
	// column j, 1-based with 0 as the virtual start.
	u := make([]float64, size+1)
	v := make([]float64, size+1)
	p := make([]int, size+1)
	way := make([]int, size+1)
	for i := 1; i <= size; i++ {
		p[0] = i
		j0 := 0
		minv := make([]float64, size+1)
		used := make([]bool, size+1)
		for j := range minv {
			minv[j] = math.Inf(1)
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			for j := 1; j <= size; j++ {
				if used[j] {
					continue
				}
				cur := big(i0-1, j-1) - u[i0] - v[j]
				if cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= size; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for j := 1; j <= size; j++ {
		i := p[j] - 1
		if i < n && j-1 < m && cost[i][j-1] < forbidden {
			out[i] = j - 1
		}
	}
	return out
}
