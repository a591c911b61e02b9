package whdiskwars

import (
	"fmt"
	"testing"
)

func TestCycles(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		pairs [][2]int
		want  string
	}{
		{"none", 3, [][2]int{{0, 1}, {1, 2}}, "[]"},
		{"two engagements swapping roles (Figure 6, A and D)", 4, [][2]int{{1, 0}, {2, 0}, {0, 3}, {3, 0}}, "[[0 3]]"},
		{"a longer cycle and a separate one", 6, [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 3}, {2, 5}}, "[[0 1 2] [3 4]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fmt.Sprint(Cycles(tt.n, tt.pairs)); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func hintsFor(n int) OrderHints {
	return OrderHints{Rank: filled(n, Unlisted), UnpinnedAttacker: make([]bool, n), TopZ: make([]int, n)}
}

// The order keeps every constraint outside a cycle, breaks one inside a
// cycle only, and otherwise follows the first player's ranks, then the
// tie-breaks written on PlanOrder.
func TestPlanOrder(t *testing.T) {
	// Figure 6: A=0, B=1, C=2, D=3; B and C before A; A and D in a cycle.
	fig6 := [][2]int{{0, 3}, {1, 0}, {2, 0}, {3, 0}}
	tests := []struct {
		name      string
		n         int
		pairs     [][2]int
		edit      func(h *OrderHints)
		want      string
		overruled string
	}{
		{"no constraint: by number", 3, nil, nil, "[0 1 2]", "[]"},
		{"a chain is kept whatever the ranks", 3, [][2]int{{2, 1}, {1, 0}}, func(h *OrderHints) { h.Rank = []int{0, 1, 2} }, "[2 1 0]", "[]"},
		{"ranks order free engagements", 3, nil, func(h *OrderHints) { h.Rank = []int{2, 0, 1} }, "[1 2 0]", "[]"},
		{"unlisted come after listed", 3, nil, func(h *OrderHints) { h.Rank[2] = 0 }, "[2 0 1]", "[]"},
		{"figure 6 by default: B, C, then A (top-down tie-break), D", 4, fig6, func(h *OrderHints) { h.TopZ = []int{3, 0, 0, 2} }, "[1 2 0 3]", "[[3 0]]"},
		{"figure 6: D on top goes before A", 4, fig6, func(h *OrderHints) { h.TopZ = []int{2, 0, 0, 3} }, "[1 2 3 0]", "[[0 3]]"},
		{"figure 6: an unpinned attacker goes before a higher defender", 4, fig6, func(h *OrderHints) {
			h.TopZ = []int{3, 0, 0, 2}
			h.UnpinnedAttacker = []bool{false, true, true, true}
		}, "[1 2 3 0]", "[[0 3]]"},
		{"figure 6: the first player may take D first", 4, fig6, func(h *OrderHints) { h.Rank[3] = 0 }, "[3 1 2 0]", "[[0 3]]"},
		{"figure 6: A cannot go before B and C", 4, fig6, func(h *OrderHints) { h.Rank = []int{0, 1, 2, 3} }, "[1 2 0 3]", "[[3 0]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := hintsFor(tt.n)
			if tt.edit != nil {
				tt.edit(&h)
			}
			p := PlanOrder(tt.n, tt.pairs, h)
			if got := fmt.Sprint(p.Order); got != tt.want {
				t.Errorf("order: got %s, want %s", got, tt.want)
			}
			if got := fmt.Sprint(p.Overruled); got != tt.overruled {
				t.Errorf("overruled: got %s, want %s", got, tt.overruled)
			}
		})
	}
}
