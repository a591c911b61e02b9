package whdiskwars

import (
	"cmp"
	"math"
	"slices"
)

// ResolveBefore returns the order constraints of a split: [X, Y] when an
// embattled disk defends in engagement X and attacks in Y ("resolve
// engagements where embattled disks defend before those in which they
// attack"; "Scrums are resolved top-down"). Pairs are distinct and sorted.
//
// With three sides or more, an embattled disk can defend and attack in
// the same engagement; such disks are returned in sameEngagement and give
// no constraint.
func ResolveBefore(s Split) (pairs [][2]int, sameEngagement []int) {
	for _, d := range s.Embattled {
		x, y := s.DefendIn[d], s.AttackIn[d]
		if x == y {
			sameEngagement = append(sameEngagement, d)
			continue
		}
		pairs = append(pairs, [2]int{x, y})
	}
	slices.SortFunc(pairs, comparePairs)
	return slices.Compact(pairs), sameEngagement
}

func comparePairs(a, b [2]int) int {
	return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
}

// Cycles returns the groups of engagements whose constraints form a cycle
// (the strongly connected components of two engagements or more), each
// ascending, ordered by their first engagement. The text's engagements A
// and D of Figure 6 are such a group: "two embattled disks ... swap roles
// between the two".
func Cycles(n int, pairs [][2]int) [][]int {
	comp := components(n, pairs)
	groups := map[int][]int{}
	for e, c := range comp {
		groups[c] = append(groups[c], e)
	}
	var out [][]int
	for _, g := range groups {
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return cmp.Compare(a[0], b[0]) })
	return out
}

// components returns the strongly connected component of every node of
// the graph (Tarjan's algorithm).
func components(n int, pairs [][2]int) []int {
	next := make([][]int, n)
	for _, p := range pairs {
		next[p[0]] = append(next[p[0]], p[1])
	}
	t := tarjan{next: next, index: filled(n, -1), low: make([]int, n), onStack: make([]bool, n), comp: filled(n, -1)}
	for v := range n {
		if t.index[v] < 0 {
			t.visit(v)
		}
	}
	return t.comp
}

type tarjan struct {
	next            [][]int
	index, low      []int
	onStack         []bool
	stack           []int
	counter, ncomps int
	comp            []int
}

func (t *tarjan) visit(v int) {
	t.index[v], t.low[v] = t.counter, t.counter
	t.counter++
	t.stack = append(t.stack, v)
	t.onStack[v] = true
	for _, w := range t.next[v] {
		switch {
		case t.index[w] < 0:
			t.visit(w)
			t.low[v] = min(t.low[v], t.low[w])
		case t.onStack[w]:
			t.low[v] = min(t.low[v], t.index[w])
		}
	}
	if t.low[v] != t.index[v] {
		return
	}
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.onStack[w] = false
		t.comp[w] = t.ncomps
		if w == v {
			break
		}
	}
	t.ncomps++
}

// Unlisted is the rank of an engagement the first player's explicit order
// does not name: after every named one.
const Unlisted = math.MaxInt

// OrderHints are what the default order looks at, per engagement.
type OrderHints struct {
	// Rank is the engagement's position in the first player's explicit
	// order, Unlisted when absent.
	Rank []int
	// UnpinnedAttacker: some attacker of the engagement is pinned by no
	// enemy.
	UnpinnedAttacker []bool
	// TopZ is the highest stacking level among the engagement's defenders.
	TopZ []int
}

// Plan is an order in which to resolve the engagements.
type Plan struct {
	// Order lists the engagements in the order they are resolved.
	Order []int
	// Overruled lists the constraints [X, Y] the order breaks (Y resolved
	// before X): only ever inside a cycle, where some must be broken.
	Overruled [][2]int
}

// PlanOrder orders the engagements. Constraints outside a cycle are always
// kept; inside a cycle the first player chooses ("The last and final rule,
// which is the ultimate tiebreaker is 'First player decides'").
//
// An engagement may be resolved next when every engagement that must come
// before it is resolved or lies in the same cycle as it. Among those the
// engine takes, in this order of preference:
//  1. the earliest in the first player's explicit order (Rank);
//  2. one that breaks no constraint;
//  3. one in which an unpinned disk attacks ("engagements where unpinned
//     disks attack are resolved first", the developers' answer quoted in
//     the comments);
//  4. the one whose topmost defender lies highest ("Scrums are resolved
//     top-down");
//  5. the lowest engagement number.
func PlanOrder(n int, pairs [][2]int, h OrderHints) Plan {
	comp := components(n, pairs)
	preds := make([][]int, n)
	for _, p := range pairs {
		preds[p[1]] = append(preds[p[1]], p[0])
	}
	done := make([]bool, n)
	var plan Plan
	for range n {
		best, bestBreaks := -1, false
		for e := range n {
			if done[e] {
				continue
			}
			free, breaks := readiness(e, preds[e], done, comp)
			if free && (best < 0 || preferred(e, breaks, best, bestBreaks, h)) {
				best, bestBreaks = e, breaks
			}
		}
		for _, p := range preds[best] {
			if !done[p] {
				plan.Overruled = append(plan.Overruled, [2]int{p, best})
			}
		}
		done[best] = true
		plan.Order = append(plan.Order, best)
	}
	slices.SortFunc(plan.Overruled, comparePairs)
	return plan
}

// readiness tells whether every unresolved predecessor of e lies in its
// cycle (free), and whether there is any (breaks).
func readiness(e int, preds []int, done []bool, comp []int) (free, breaks bool) {
	for _, p := range preds {
		if done[p] {
			continue
		}
		if comp[p] != comp[e] {
			return false, false
		}
		breaks = true
	}
	return true, breaks
}

// preferred reports whether a is to be resolved before b (see PlanOrder).
func preferred(a int, aBreaks bool, b int, bBreaks bool, h OrderHints) bool {
	c := cmp.Or(
		cmp.Compare(h.Rank[a], h.Rank[b]),
		compareBool(aBreaks, bBreaks),
		compareBool(!h.UnpinnedAttacker[a], !h.UnpinnedAttacker[b]),
		cmp.Compare(h.TopZ[b], h.TopZ[a]),
		cmp.Compare(a, b),
	)
	return c < 0
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
