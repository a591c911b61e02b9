package whdiskwars

import (
	"fmt"
	"slices"
	"strings"

	"tableref/engine"
)

// Name is the ruleset's name for --rules.
const Name = "whdiskwars"

// Ruleset is Warhammer: Diskwars for the analysis report. Its zero value
// is ready to use.
type Ruleset struct{}

// Name returns "whdiskwars".
func (Ruleset) Name() string { return Name }

// Summary says what the ruleset decides.
func (Ruleset) Summary() string {
	return "Warhammer: Diskwars (2014): engagements, embattled disks, scrums, resolution order, melee with Swift/Slow/Frenzy, End Phase"
}

// Analyze resolves the Melee Phase of the table and fills the report.
func (Ruleset) Analyze(t *engine.Table) (engine.Outcome, error) {
	a, err := Run(t)
	if err != nil {
		return engine.Outcome{}, err
	}
	return a.Outcome(), nil
}

// Analysis is everything the ruleset finds on a table.
type Analysis struct {
	Table    *engine.Table
	Relation Relation
	Split    Split
	// ResolveBefore are the order constraints, Cycles the groups of
	// engagements whose constraints go round.
	ResolveBefore [][2]int
	Cycles        [][]int
	// Plan is the order the engagements were resolved in; Explicit tells
	// whether the layout gave an engagement_order.
	Plan     Plan
	Explicit bool
	Fighters []Fighter
	Result   Result
	Warnings []string
}

// Run finds the engagements of the table, orders them and resolves the
// Melee Phase. Errors name the disk and the stat that is missing.
//
// A disk in an engagement photographed past its limits (Health.Settle)
// should have taken its wound, or been removed, when its damage reached
// its toughness: "Damage stays on a disk until it equals or exceeds (at
// any time) that disk's Toughness". It is settled before the phase, and
// the engagements are those of the table without the disks so removed:
// a pin their removal uncovers was there when the phase began, and is
// resolved ("Only engagements that were already established at the
// beginning of the Melee Phase have to be resolved in that phase").
// Settling goes on while removals engage further disks past their limits.
func Run(t *engine.Table) (Analysis, error) {
	a := Analysis{Table: t}
	removed := make([]bool, t.Len())
	settled := make([]bool, t.Len())
	var start []Correction
	var warnings []string
	for {
		a.Relation = EnemyPinsWithout(t, removed)
		a.Split = SplitEngagements(a.Relation)
		fighters, w, err := Fighters(t, a.Split, a.Relation)
		if err != nil {
			return Analysis{}, err
		}
		a.Fighters = fighters
		for _, x := range w {
			if !slices.Contains(warnings, x) {
				warnings = append(warnings, x)
			}
		}
		more := false
		for i, f := range fighters {
			if settled[i] || a.Split.AttackIn[i] < 0 && a.Split.DefendIn[i] < 0 {
				continue
			}
			h, applied := f.Health.Settle()
			if !applied.Wounded && !applied.Destroyed {
				continue
			}
			settled[i] = true
			start = append(start, Correction{Disk: i, Before: f.Health, After: h, Applied: applied})
			if applied.Destroyed {
				removed[i], more = true, true
			}
		}
		if !more {
			break
		}
	}
	slices.SortFunc(start, func(x, y Correction) int { return x.Disk - y.Disk })
	a.Warnings = append(UnsettledPins(t), warnings...)
	pairs, same := ResolveBefore(a.Split)
	a.ResolveBefore = pairs
	a.Cycles = Cycles(len(a.Split.Engagements), pairs)
	for _, d := range same {
		a.warnf("disk %s attacks and defends in the same engagement %s (three sides or more): nothing orders its two roles",
			label(t.Disk(d)), a.Split.Engagements[a.Split.AttackIn[d]].ID)
	}
	rank, explicit, w, err := ExplicitOrder(t, a.Split)
	if err != nil {
		return Analysis{}, err
	}
	a.Explicit = explicit
	a.Warnings = append(a.Warnings, w...)
	a.Plan = PlanOrder(len(a.Split.Engagements), pairs, a.hints(rank))
	if explicit {
		a.checkExplicit()
	}
	a.Result = resolve(t, a.Relation, a.Split, a.Fighters, a.Plan.Order, start)
	return a, nil
}

// hints gathers what the default order looks at.
func (a *Analysis) hints(rank []int) OrderHints {
	n := len(a.Split.Engagements)
	h := OrderHints{Rank: rank, UnpinnedAttacker: make([]bool, n), TopZ: make([]int, n)}
	for e, g := range a.Split.Engagements {
		h.UnpinnedAttacker[e] = slices.ContainsFunc(g.Attackers, func(i int) bool { return len(a.Relation.PinnedBy[i]) == 0 })
		h.TopZ[e] = a.Table.Disk(g.Defenders[0]).Z
		for _, d := range g.Defenders {
			h.TopZ[e] = max(h.TopZ[e], a.Table.Disk(d).Z)
		}
	}
	return h
}

// checkExplicit warns when the rules did not let the engine follow the
// first player's order: whenever an engagement was resolved before one
// named earlier (an unnamed one counts as named after every named one),
// saying which rule put it first.
func (a *Analysis) checkExplicit() {
	if len(a.Plan.Overrides) == 0 {
		return
	}
	var why []string
	for _, o := range a.Plan.Overrides {
		if r := a.overrideReason(o); !slices.Contains(why, r) {
			why = append(why, r)
		}
	}
	a.warnf("%s cannot be followed as given: %s; resolved in the order %s",
		orderOption, strings.Join(why, "; "), strings.Join(a.ids(a.Plan.Order), ", "))
}

// overrideReason says in words why o.By went before o.Wanted.
func (a *Analysis) overrideReason(o Override) string {
	w, by := a.Split.Engagements[o.Wanted].ID, a.Split.Engagements[o.By].ID
	switch o.Why {
	case KeepsConstraints:
		return fmt.Sprintf("%s must wait for %s: in their cycle %s keeps every constraint and %s would break one", w, by, by, w)
	case UnpinnedFirst:
		return fmt.Sprintf("%s must wait for %s: in their cycle an unpinned disk attacks in %s and none in %s (engagements where unpinned disks attack are resolved first)", w, by, by, w)
	}
	return fmt.Sprintf("%s must wait for %s (an embattled disk defends in %s and attacks in %s)", w, by, by, w)
}

func (a *Analysis) warnf(format string, args ...any) {
	a.Warnings = append(a.Warnings, fmt.Sprintf(format, args...))
}

func (a *Analysis) ids(engagements []int) []string {
	out := make([]string, len(engagements))
	for k, e := range engagements {
		out[k] = a.Split.Engagements[e].ID
	}
	return out
}

// Outcome turns the analysis into the report's fields.
func (a Analysis) Outcome() engine.Outcome {
	t := a.Table
	o := engine.Outcome{Embattled: t.IDs(a.Split.Embattled), Warnings: a.Warnings}
	for _, g := range a.Split.Engagements {
		o.Engagements = append(o.Engagements, engine.Engagement{ID: g.ID, Attackers: t.IDs(g.Attackers), Defenders: t.IDs(g.Defenders)})
	}
	for _, p := range a.ResolveBefore {
		o.ResolveBefore = append(o.ResolveBefore, [2]string{a.Split.Engagements[p[0]].ID, a.Split.Engagements[p[1]].ID})
	}
	o.Melee = a.melee()
	o.Log = append(slices.Clone(a.Result.Events), a.endPhaseEvent())
	o.Details = a.details()
	return o
}

// melee returns the state after the Melee Phase: casualties, and the
// wounds and damage on the disks still in play (non-zero only).
func (a Analysis) melee() *engine.Melee {
	m := &engine.Melee{Casualties: a.Table.IDs(a.Result.Casualties), Wounds: map[string]int{}, Damage: map[string]int{}}
	for i, h := range a.Result.Health {
		if a.Result.Removed[i] {
			continue
		}
		if h.Wounds > 0 {
			m.Wounds[a.Table.ID(i)] = h.Wounds
		}
		if h.Damage > 0 {
			m.Damage[a.Table.ID(i)] = h.Damage
		}
	}
	return m
}
