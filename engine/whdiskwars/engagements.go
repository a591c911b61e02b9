package whdiskwars

import (
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Relation is the enemy pin relation of a table: Pins[i] lists the enemy
// disks disk i pins, PinnedBy[i] the enemy disks pinning i, both
// ascending. "An engagement is created every time a disk is pinning an
// enemy."
type Relation struct {
	Pins, PinnedBy [][]int
}

// EnemyPins returns the pin relation of the table restricted to enemies
// (models.Enemies) that can fight (see Combatant).
func EnemyPins(t *engine.Table) Relation {
	r := newRelation(t.Len())
	for i := range t.Len() {
		for _, j := range t.Pins(i) {
			if engages(t.Disk(i), t.Disk(j)) {
				r.add(i, j)
			}
		}
	}
	return r
}

// EnemyPinsWithout is EnemyPins on the table without the disks removed
// (by layout index): a disk that lay on a removed one lies on what is
// under it. The relation is by the table's layout indices; a removed disk
// pins nothing and is pinned by nothing.
func EnemyPinsWithout(t *engine.Table, removed []bool) Relation {
	if !slices.Contains(removed, true) {
		return EnemyPins(t)
	}
	keep := make([]int, 0, t.Len())
	sub := t.Layout()
	sub.Disks, sub.Tokens = nil, nil
	for i, d := range t.Disks() {
		if !removed[i] {
			keep = append(keep, i)
			sub.Disks = append(sub.Disks, d)
		}
	}
	now := EnemyPins(engine.NewTable(sub))
	r := newRelation(t.Len())
	for k, bs := range now.Pins {
		for _, b := range bs {
			r.add(keep[k], keep[b])
		}
	}
	return r
}

func newRelation(n int) Relation {
	return Relation{Pins: make([][]int, n), PinnedBy: make([][]int, n)}
}

// add records that top pins bottom; calls must come in ascending order of
// top so that the lists stay sorted.
func (r Relation) add(top, bottom int) {
	r.Pins[top] = append(r.Pins[top], bottom)
	r.PinnedBy[bottom] = append(r.PinnedBy[bottom], top)
}

// Has reports whether top pins the enemy bottom.
func (r Relation) Has(top, bottom int) bool {
	_, ok := slices.BinarySearch(r.Pins[top], bottom)
	return ok
}

// Combatant reports whether a disk fights in melee: a creature (or a disk
// of unknown kind), not terrain or a spell.
func Combatant(d models.Disk) bool {
	return !d.IsTerrain() && d.Kind != models.KindSpell
}

func engages(top, bottom models.Disk) bool {
	return Combatant(top) && Combatant(bottom) && models.Enemies(top, bottom)
}

// UnsettledPins warns about every pin between two combatants whose enmity
// the layout does not settle: they do not both have a side, nor both an
// owner. models.Enemies calls them friends, so the pin makes no
// engagement; the warning says why.
func UnsettledPins(t *engine.Table) []string {
	var warnings []string
	for i := range t.Len() {
		for _, j := range t.Pins(i) {
			top, bottom := t.Disk(i), t.Disk(j)
			if Combatant(top) && Combatant(bottom) && !enmitySettled(top, bottom) {
				warnings = append(warnings, fmt.Sprintf("disk %s pins %s, but cannot tell whether %s and %s are enemies: %s has %s, %s has %s (sides are compared when both have one, else owners, both needed); no engagement",
					label(top), label(bottom), top.ID, bottom.ID, top.ID, allegiance(top), bottom.ID, allegiance(bottom)))
			}
		}
	}
	return warnings
}

// enmitySettled reports whether the layout says whether a and b are
// enemies: both have a side, or both an owner.
func enmitySettled(a, b models.Disk) bool {
	return a.Side != "" && b.Side != "" || a.Owner != "" && b.Owner != ""
}

// allegiance describes a disk's side and owner.
func allegiance(d models.Disk) string {
	switch {
	case d.Side == "" && d.Owner == "":
		return "neither side nor owner"
	case d.Owner == "":
		return fmt.Sprintf("side %q and no owner", d.Side)
	case d.Side == "":
		return fmt.Sprintf("owner %q and no side", d.Owner)
	}
	return fmt.Sprintf("side %q and owner %q", d.Side, d.Owner)
}

// Engagement is one melee: the disks attacking (pinning an enemy) and
// defending (pinned by an enemy), by layout index, ascending.
type Engagement struct {
	ID        string
	Attackers []int
	Defenders []int
}

// Split is how the pin relation divides into engagements.
type Split struct {
	// Engagements are numbered E1, E2, ... in the layout order of their
	// first attacker (every disk attacks in one engagement at most, so the
	// order is total).
	Engagements []Engagement
	// AttackIn[i] and DefendIn[i] are the engagements (indices into
	// Engagements) in which disk i attacks and defends, -1 for none.
	AttackIn, DefendIn []int
	// Embattled lists the disks that both pin an enemy and are pinned by
	// one, ascending.
	Embattled []int
}

// SplitEngagements divides the pin relation into engagements.
//
// Each disk has up to two roles: attacker (it pins an enemy) and defender
// (an enemy pins it). Each pin joins the top disk's attacker role to the
// bottom disk's defender role; an engagement is a connected set of roles.
// So a disk is in one engagement at most as attacker and one at most as
// defender, and "all disks that can be traced back to a single common
// attacker or defender, in a way that no disk is embattled" are in the
// same engagement: the trace never passes from an embattled disk's one
// role to its other.
func SplitEngagements(r Relation) Split {
	n := len(r.Pins)
	uf := newUnionFind(2 * n)
	for top, bs := range r.Pins {
		for _, b := range bs {
			uf.union(attackRole(top), defendRole(b))
		}
	}
	s := Split{AttackIn: filled(n, -1), DefendIn: filled(n, -1)}
	byRoot := map[int]int{}
	for i := range n { // attackers first, in layout order: that numbers the engagements
		if len(r.Pins[i]) > 0 {
			s.AttackIn[i] = s.join(byRoot, uf.find(attackRole(i)))
			s.Engagements[s.AttackIn[i]].Attackers = append(s.Engagements[s.AttackIn[i]].Attackers, i)
		}
	}
	for i := range n {
		if len(r.PinnedBy[i]) > 0 {
			s.DefendIn[i] = byRoot[uf.find(defendRole(i))]
			s.Engagements[s.DefendIn[i]].Defenders = append(s.Engagements[s.DefendIn[i]].Defenders, i)
			if s.AttackIn[i] >= 0 {
				s.Embattled = append(s.Embattled, i)
			}
		}
	}
	return s
}

// join returns the engagement of a root, creating it when new.
func (s *Split) join(byRoot map[int]int, root int) int {
	if e, ok := byRoot[root]; ok {
		return e
	}
	e := len(s.Engagements)
	byRoot[root] = e
	s.Engagements = append(s.Engagements, Engagement{ID: fmt.Sprintf("E%d", e+1)})
	return e
}

// Scrums returns the groups of engagements linked through embattled disks
// (a disk defending in one and attacking in another), two engagements or
// more each, every group ascending and ordered by its first engagement.
// "A combat which involves at least one embattled disk ... is called a
// Scrum."
func (s Split) Scrums() [][]int {
	uf := newUnionFind(len(s.Engagements))
	for _, d := range s.Embattled {
		uf.union(s.AttackIn[d], s.DefendIn[d])
	}
	groups := map[int][]int{}
	var roots []int
	for e := range s.Engagements {
		r := uf.find(e)
		if _, seen := groups[r]; !seen {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], e)
	}
	var out [][]int
	for _, r := range roots {
		if len(groups[r]) > 1 {
			out = append(out, groups[r])
		}
	}
	return out
}

func attackRole(i int) int { return 2 * i }
func defendRole(i int) int { return 2*i + 1 }

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// unionFind is a disjoint-set forest with path halving.
type unionFind struct{ parent []int }

func newUnionFind(n int) *unionFind {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return &unionFind{p}
}

func (u *unionFind) find(x int) int {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

func (u *unionFind) union(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra != rb {
		u.parent[max(ra, rb)] = min(ra, rb)
	}
}
