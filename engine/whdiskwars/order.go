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
	// Overrides are the steps where the rules did not let the first
	// player's explicit order (OrderHints.Rank) be followed.
	Overrides []Override
}

// Override is a step of a Plan where Wanted, the unresolved engagement the
// first player named earliest, could not be resolved: By had to come
// first, for the reason Why; Chosen was resolved instead.
type Override struct {
	Wanted, Chosen, By int
	Why                OverrideReason
}

// OverrideReason says which rule put an engagement before the one the
// first player wanted.
type OverrideReason int

const (
	// WaitsFor: By must be resolved before Wanted, and the two are not in
	// one cycle ("resolve engagements where embattled disks defend before
	// those in which they attack").
	WaitsFor OverrideReason = iota
	// KeepsConstraints: in their cycle, By can be resolved without
	// breaking a constraint and Wanted cannot.
	KeepsConstraints
	// UnpinnedFirst: in their cycle both break a constraint, and an
	// unpinned disk attacks in By, none in Wanted ("engagements where
	// unpinned disks attack are resolved first").
	UnpinnedFirst
)

// PlanOrder orders the engagements. Constraints outside a cycle are always
// kept. Inside a cycle ("you'll have a situation in which an embattled
// disk attacks before defending ... You'll need to resort to another
// rule") the engine keeps every constraint it still can, then resolves
// first an engagement where an unpinned disk attacks ("Based on the
// developer's responses, engagements where unpinned disks attack are
// resolved first"), and only then lets the first player decide ("The last
// and final rule, which is the ultimate tiebreaker is 'First player
// decides'").
//
// An engagement may be resolved next when every engagement that must come
// before it is resolved or lies in the same cycle as it (free), and no
// unresolved engagement of its cycle goes before it by the cycle's rules:
// one that breaks no constraint before one that breaks some, then, among
// those that break some, one with an unpinned attacker before one
// without. Among those the engine takes, in this order of preference:
//  1. the earliest in the first player's explicit order (Rank);
//  2. one that breaks no constraint;
//  3. one in which an unpinned disk attacks;
//  4. the one whose topmost defender lies highest ("Scrums are resolved
//     top-down");
//  5. the lowest engagement number.
//
// Every step where the engagement ranked earliest could not be taken is
// recorded in Plan.Overrides.
func PlanOrder(n int, pairs [][2]int, h OrderHints) Plan {
	g := newOrderGraph(n, pairs)
	done := make([]bool, n)
	var plan Plan
	for range n {
		s := g.step(done, h)
		best := -1
		for e := range n {
			if s.eligible(e) && (best < 0 || preferred(e, s.breaks[e], best, s.breaks[best], h)) {
				best = e
			}
		}
		if o, ok := s.override(best, h); ok {
			plan.Overrides = append(plan.Overrides, o)
		}
		for _, p := range g.preds[best] {
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

// orderGraph is the constraint graph: every engagement's predecessors and
// its strongly connected component (its cycle, or itself alone).
type orderGraph struct {
	comp  []int
	preds [][]int
}

func newOrderGraph(n int, pairs [][2]int) orderGraph {
	g := orderGraph{comp: components(n, pairs), preds: make([][]int, n)}
	for _, p := range pairs {
		g.preds[p[1]] = append(g.preds[p[1]], p[0])
	}
	return g
}

// orderStep is what PlanOrder knows of the engagements at one step.
type orderStep struct {
	g      orderGraph
	done   []bool
	free   []bool
	breaks []bool // some predecessor in its cycle is unresolved
	key    []int  // cycleKey
	best   map[int]int
}

func (g orderGraph) step(done []bool, h OrderHints) orderStep {
	n := len(done)
	s := orderStep{g: g, done: done, free: make([]bool, n), breaks: make([]bool, n), key: make([]int, n), best: map[int]int{}}
	for e := range n {
		if done[e] {
			continue
		}
		s.free[e], s.breaks[e] = readiness(e, g.preds[e], done, g.comp)
		s.key[e] = cycleKey(s.breaks[e], h.UnpinnedAttacker[e])
		if k, seen := s.best[g.comp[e]]; !seen || s.key[e] < k {
			s.best[g.comp[e]] = s.key[e]
		}
	}
	return s
}

// cycleKey ranks an engagement within its cycle, lower first: one that
// breaks no constraint, then one that breaks some with an unpinned
// attacker, then one without.
func cycleKey(breaks, unpinned bool) int {
	switch {
	case !breaks:
		return 0
	case unpinned:
		return 1
	}
	return 2
}

func (s orderStep) eligible(e int) bool {
	return s.free[e] && s.key[e] == s.best[s.g.comp[e]]
}

// readiness tells whether every unresolved predecessor of e lies in its
// cycle (free), and whether any unresolved predecessor lies in its cycle
// (breaks).
func readiness(e int, preds []int, done []bool, comp []int) (free, breaks bool) {
	free = true
	for _, p := range preds {
		switch {
		case done[p]:
		case comp[p] != comp[e]:
			free = false
		default:
			breaks = true
		}
	}
	return free, breaks
}

// override reports whether choosing chosen passes over the unresolved
// engagement ranked earliest, and why.
func (s orderStep) override(chosen int, h OrderHints) (Override, bool) {
	wanted := -1
	for e := range s.done {
		if !s.done[e] && (wanted < 0 || h.Rank[e] < h.Rank[wanted]) {
			wanted = e
		}
	}
	if h.Rank[chosen] <= h.Rank[wanted] {
		return Override{}, false
	}
	o := Override{Wanted: wanted, Chosen: chosen}
	if !s.free[wanted] {
		o.By, o.Why = s.blocker(wanted), WaitsFor
		return o, true
	}
	o.By = s.cycleLeader(wanted, h)
	o.Why = UnpinnedFirst
	if s.key[o.By] == 0 {
		o.Why = KeepsConstraints
	}
	return o, true
}

// blocker returns the first unresolved predecessor of e outside its cycle.
func (s orderStep) blocker(e int) int {
	for _, p := range s.g.preds[e] {
		if !s.done[p] && s.g.comp[p] != s.g.comp[e] {
			return p
		}
	}
	return -1
}

// cycleLeader returns the unresolved engagement of e's cycle the cycle's
// rules put first, the earliest ranked (then lowest numbered) on a tie.
func (s orderStep) cycleLeader(e int, h OrderHints) int {
	leader := -1
	for m := range s.done {
		if s.done[m] || s.g.comp[m] != s.g.comp[e] || s.key[m] != s.best[s.g.comp[e]] {
			continue
		}
		if leader < 0 || h.Rank[m] < h.Rank[leader] {
			leader = m
		}
	}
	return leader
}

// preferred reports whether a is to be resolved before b, both eligible
// (see PlanOrder).
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
