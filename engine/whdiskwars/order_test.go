package whdiskwars

import (
	"fmt"
	"strings"
	"testing"

	"tableref/engine"
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
		// Comment 8: inside a cycle "engagements where unpinned disks attack
		// are resolved first"; only then "First player decides".
		{"figure 6: inside the cycle an unpinned attacker goes before the first player's rank", 4, fig6, func(h *OrderHints) {
			h.Rank[3] = 0
			h.UnpinnedAttacker = []bool{true, false, false, false}
		}, "[1 2 0 3]", "[[3 0]]"},
		{"figure 6: the first player's rank decides between cycle members tied on unpinned attackers", 4, fig6, func(h *OrderHints) {
			h.Rank[3] = 0
			h.UnpinnedAttacker = []bool{true, false, false, true}
		}, "[3 1 2 0]", "[[0 3]]"},
		{"a broken cycle keeps the constraints it still can, whatever the ranks", 3, [][2]int{{0, 1}, {1, 2}, {2, 0}}, func(h *OrderHints) { h.Rank = []int{0, 2, 1} }, "[0 1 2]", "[[2 0]]"},
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

// Comment 8, the author's answer on Figure 6: in a cycle "you'll have a
// situation in which an embattled disk attacks before defending ... You'll
// need to resort to another rule. Based on the developer's responses,
// engagements where unpinned disks attack are resolved first ... The last
// and final rule, which is the ultimate tiebreaker is 'First player
// decides'". In testdata/comment8-cycle.json E1 (the Boar Boyz, pinned by
// nobody, and h attack) and E2 (k attacks h) form a cycle; only E1 has an
// unpinned attacker, so E1 goes first even when the first player names E2,
// and the report says the order was overridden.
func TestCycleUnpinnedAttackerGoesFirstWhateverTheFirstPlayerSays(t *testing.T) {
	tests := []struct {
		name       string
		order      string // engagement_order, "" for none
		want       []string
		casualties []string
		warning    string // "" for none
	}{
		{"by default", "", []string{"E1", "E2"}, []string{"boar", "k"}, ""},
		{"the first player names E2", `["E2"]`, []string{"E1", "E2"}, []string{"boar", "k"}, "unpinned disk attacks in E1"},
		{"the first player names E1", `["E1", "E2"]`, []string{"E1", "E2"}, []string{"boar", "k"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := loadTable(t, "comment8-cycle.json").Layout().Clone()
			if tt.order != "" {
				setOption(&l, "engagement_order", tt.order)
			}
			a := mustRun(t, engine.NewTable(l))
			o := a.Outcome()
			d := o.Details.(Details)
			if len(d.Cycles) != 1 {
				t.Fatalf("cycles: got %v, want [[E1 E2]]", d.Cycles)
			}
			checkList(t, "cycle", d.Cycles[0], []string{"E1", "E2"})
			checkList(t, "order", d.Order, tt.want)
			checkList(t, "casualties", o.Melee.Casualties, tt.casualties)
			all := strings.Join(a.Warnings, "\n")
			switch {
			case tt.warning == "" && len(a.Warnings) > 0:
				t.Errorf("warnings: got %q, want none", a.Warnings)
			case tt.warning != "" && !strings.Contains(all, tt.warning):
				t.Errorf("warnings: got %q, want one containing %q", a.Warnings, tt.warning)
			}
		})
	}
}
