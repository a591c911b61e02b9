package whdiskwars

import (
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Fighter is what the Melee Phase needs to know about one disk.
type Fighter struct {
	// Strength is dealt when attacking, Counter when defending.
	Strength, Counter int
	Health            Health
	Profile           Profile
	// Targets are the enemies the player chose for this disk, by layout
	// index, in order of preference (the disk's "target", then its
	// "targets"). The first one eligible and still in play is struck.
	Targets []int
	// Activated: an activation token lies on the disk (its "activated"
	// field or a token); only the End Phase reads it.
	Activated bool
}

// NewEngagement is a pin between enemies that appeared during the Melee
// Phase because a disk lying between them was removed. It is not resolved
// in this phase ("Only engagements that were already established at the
// beginning of the Melee Phase have to be resolved in that phase").
type NewEngagement struct {
	Attacker, Defender int
	// After is the engagement, Step the step, whose casualties uncovered
	// it; After is -1 when a disk photographed past its limits and removed
	// before the first engagement uncovered it (see Correction; only when
	// Resolve is given the photographed table's engagements: Run finds
	// them on the table without such disks, and resolves the pin).
	After int
	Step  Speed
}

// Trigger is one firing of a "when this disk engages" ability (keyword
// on-engage): once per engaged enemy, for the pinning disk and the pinned
// one alike ("Engaging is reciprocal").
type Trigger struct {
	Disk, Enemy int
	// After is the engagement whose casualties created the engagement
	// (Step the step), or -1 for an engagement that existed before the
	// Melee Phase.
	After int
	Step  Speed
	// AtStart: the engagement appeared when a disk photographed past its
	// limits was removed before the first engagement (After is -1).
	AtStart bool
}

// Result is the outcome of a Melee Phase.
type Result struct {
	// Health of every disk after the phase (casualties included, with the
	// wound that destroyed them).
	Health []Health
	// Removed[i]: disk i was destroyed during the phase.
	Removed []bool
	// Casualties in the order they were removed (layout order within a
	// step).
	Casualties []int
	Events     []engine.Event
	New        []NewEngagement
	Triggers   []Trigger
	// Corrections are the disks photographed past their limits and what
	// was applied to them before the first engagement, in layout order.
	Corrections []Correction
}

// Resolve runs the Melee Phase: every engagement of split, in the given
// order, each resolved as a whole in its Swift, normal and Slow steps.
// fighters holds every disk of the table, by layout index; rel is the
// enemy pin relation split was made from.
//
// Within a step every disk still in play strikes at once: an attacker
// deals its Strength to one enemy it pins (every one with Frenzy), a
// defender its Counter Strength to one enemy pinning it. The damage to
// each disk is summed into one instance of Physical damage (Resistant
// halves the sum), then wounds are checked, and casualties are removed
// before the next step: a disk destroyed before its step deals nothing.
// After each removal, pins between enemies that were not there at the
// start are reported as new engagements, not resolved.
//
// Before the first engagement, every disk in an engagement is settled
// (Health.Settle): one photographed with damage at or above its toughness
// suffers the wound it should already have taken, and one with more
// wounds than its stamina is removed before anyone strikes (see
// settleStart).
func Resolve(t *engine.Table, rel Relation, split Split, fighters []Fighter, order []int) Result {
	return resolve(t, rel, split, fighters, order, nil)
}

// resolve is Resolve with the corrections already made before the phase
// (Run's, in layout order): their disks start settled, and those they
// destroyed start removed, rel and split being the table's without them.
func resolve(t *engine.Table, rel Relation, split Split, fighters []Fighter, order []int, start []Correction) Result {
	ph := &phase{
		t: t, rel: rel, split: split, fighters: fighters,
		res: Result{Health: make([]Health, len(fighters)), Removed: make([]bool, len(fighters))},
	}
	for i, f := range fighters {
		ph.res.Health[i] = f.Health
	}
	for _, c := range start {
		ph.res.Health[c.Disk] = c.After
		ph.res.Corrections = append(ph.res.Corrections, c)
		ph.logCorrection(c.Disk, c.Before, c.After, c.Applied)
		if c.Applied.Destroyed {
			ph.res.Removed[c.Disk] = true
			ph.res.Casualties = append(ph.res.Casualties, c.Disk)
		}
	}
	ph.startTriggers()
	ph.settleStart()
	for _, e := range order {
		ph.engagement(e)
	}
	return ph.res
}

// phase is the state of a Melee Phase being resolved.
type phase struct {
	t        *engine.Table
	rel      Relation
	split    Split
	fighters []Fighter
	res      Result
	extra    map[[2]int]bool // pins found after the start
}

func (ph *phase) alive(i int) bool { return !ph.res.Removed[i] }

func (ph *phase) engagement(e int) {
	g := ph.split.Engagements[e]
	if !slices.ContainsFunc(g.Attackers, ph.alive) || !slices.ContainsFunc(g.Defenders, ph.alive) {
		ph.log(engine.Event{Engagement: g.ID, Kind: "skipped",
			Text: fmt.Sprintf("%s: not resolved, every attacker or every defender was destroyed before it", g.ID)})
		return
	}
	for _, step := range Steps {
		ph.step(e, step)
	}
}

// strike is one disk dealing its damage to one enemy.
type strike struct {
	from, to int
	amount   int
	attack   string
}

func (ph *phase) step(e int, step Speed) {
	g := ph.split.Engagements[e]
	var strikes []strike
	for _, a := range g.Attackers {
		strikes = append(strikes, ph.strikesOf(g.ID, step, a, AttackStrength, ph.rel.Pins[a])...)
	}
	for _, d := range g.Defenders {
		strikes = append(strikes, ph.strikesOf(g.ID, step, d, AttackCounter, ph.rel.PinnedBy[d])...)
	}
	if len(strikes) == 0 {
		return
	}
	sums := map[int]int{}
	for _, s := range strikes {
		ph.log(engine.Event{Engagement: g.ID, Step: step.String(), From: ph.t.ID(s.from), To: ph.t.ID(s.to),
			Amount: s.amount, Kind: "damage",
			Text: fmt.Sprintf("%s %s: %s deals %d (%s) to %s", g.ID, step, ph.label(s.from), s.amount, attackName(s.attack), ph.label(s.to))})
		sums[s.to] += s.amount
	}
	targets := sortedKeys(sums)
	var destroyed []int
	for _, to := range targets {
		if ph.damage(g.ID, step, to, sums[to]) {
			destroyed = append(destroyed, to)
		}
	}
	ph.remove(e, step, destroyed)
}

// remove takes the disks destroyed in a step of engagement e (or before
// the first engagement, e -1) off the table and reports the engagements
// their removal uncovers.
func (ph *phase) remove(e int, step Speed, destroyed []int) {
	for _, d := range destroyed {
		ph.res.Removed[d] = true
		ph.res.Casualties = append(ph.res.Casualties, d)
	}
	if len(destroyed) > 0 {
		ph.newContacts(e, step)
	}
}

// strikesOf returns what disk i deals in this step with the given attack,
// to the enemies among candidates (the engagement's disks it pins, or
// that pin it) still in play.
func (ph *phase) strikesOf(id string, step Speed, i int, attack string, candidates []int) []strike {
	f := ph.fighters[i]
	if !ph.alive(i) || f.Profile.Speed(attack) != step {
		return nil
	}
	amount := f.Strength
	if attack == AttackCounter {
		amount = f.Counter
	}
	live := slices.DeleteFunc(slices.Clone(candidates), func(j int) bool { return !ph.alive(j) })
	if len(live) == 0 {
		ph.log(engine.Event{Engagement: id, Step: step.String(), From: ph.t.ID(i), Kind: "no-target",
			Text: fmt.Sprintf("%s %s: %s has no enemy left to strike", id, step, ph.label(i))})
		return nil
	}
	if amount <= 0 {
		return nil
	}
	if attack == AttackStrength && f.Profile.Frenzy {
		out := make([]strike, len(live))
		for k, j := range live {
			out[k] = strike{i, j, amount, attack}
		}
		return out
	}
	return []strike{{i, ph.chooseTarget(i, live), amount, attack}}
}

// damage deals one summed instance of Physical damage to disk i and
// reports whether it was destroyed.
func (ph *phase) damage(id string, step Speed, i, amount int) bool {
	before := ph.res.Health[i]
	h, a := Deal(before, ph.fighters[i].Profile, amount, Physical)
	ph.res.Health[i] = h
	ev := engine.Event{Engagement: id, Step: step.String(), To: ph.t.ID(i)}
	switch {
	case a.Immune:
		ev.Kind, ev.Text = "immune", fmt.Sprintf("%s %s: %s is Immune (physical) and takes none of the %d damage", id, step, ph.label(i), a.Dealt)
		ph.log(ev)
	case a.Halved:
		ev.Kind, ev.Amount = "resisted", a.Taken
		ev.Text = fmt.Sprintf("%s %s: %s is Resistant (physical) and takes %d of the %d damage", id, step, ph.label(i), a.Taken, a.Dealt)
		ph.log(ev)
	}
	if !a.Wounded {
		return false
	}
	ev.Kind, ev.Amount = "wound", 1
	ev.Text = fmt.Sprintf("%s %s: %s suffers a wound (%d damage against toughness %d, %d wasted); wounds %d, stamina %d",
		id, step, ph.label(i), before.Damage+a.Taken, h.Toughness, a.Wasted, h.Wounds, h.Stamina)
	ph.log(ev)
	if a.Destroyed {
		ev.Kind = "casualty"
		ev.Text = fmt.Sprintf("%s %s: %s is destroyed and removed (%d wounds, more than its stamina %d)", id, step, ph.label(i), h.Wounds, h.Stamina)
		ph.log(ev)
	}
	return a.Destroyed
}

// newContacts recomputes the pins on the table without the casualties and
// reports the enemy pins that are new, with their triggers. e is the
// engagement whose step removed them, or -1 before the first engagement.
func (ph *phase) newContacts(e int, step Speed) {
	now := EnemyPinsWithout(ph.t, ph.res.Removed)
	for top, bs := range now.Pins {
		for _, bottom := range bs {
			if ph.rel.Has(top, bottom) || ph.extra[[2]int{top, bottom}] {
				continue
			}
			if ph.extra == nil {
				ph.extra = map[[2]int]bool{}
			}
			ph.extra[[2]int{top, bottom}] = true
			ph.res.New = append(ph.res.New, NewEngagement{Attacker: top, Defender: bottom, After: e, Step: step})
			ev := ph.event(e, step)
			ev.From, ev.To, ev.Kind = ph.t.ID(top), ph.t.ID(bottom), "new-engagement"
			ev.Text = fmt.Sprintf("%s: %s now engages %s; this new engagement is not resolved in this Melee Phase", ph.where(e, step), ph.label(top), ph.label(bottom))
			if e < 0 {
				ev.Text += " (had the disks photographed past their limits been removed when they fell, it would have existed at the start of the phase: resolve it by hand, or photograph the table again without them)"
			}
			ph.log(ev)
			ph.trigger(top, bottom, e, step)
			ph.trigger(bottom, top, e, step)
		}
	}
}

// startTriggers lists the "when this disk engages" triggers of the
// engagements that exist before the Melee Phase.
func (ph *phase) startTriggers() {
	for i := range ph.fighters {
		for _, j := range mergeSorted(ph.rel.Pins[i], ph.rel.PinnedBy[i]) {
			if ph.fighters[i].Profile.OnEngage {
				ph.res.Triggers = append(ph.res.Triggers, Trigger{Disk: i, Enemy: j, After: -1})
			}
		}
	}
}

func (ph *phase) trigger(disk, enemy, e int, step Speed) {
	if !ph.fighters[disk].Profile.OnEngage {
		return
	}
	ph.res.Triggers = append(ph.res.Triggers, Trigger{Disk: disk, Enemy: enemy, After: e, Step: step, AtStart: e < 0})
	ev := ph.event(e, step)
	ev.From, ev.To, ev.Kind = ph.t.ID(disk), ph.t.ID(enemy), "trigger"
	ev.Text = fmt.Sprintf("%s: the \"when this disk engages\" ability of %s triggers against %s", ph.where(e, step), ph.label(disk), ph.label(enemy))
	ph.log(ev)
}

// event starts a log event of engagement e in the given step, or of the
// start of the phase (step "start") when e is -1.
func (ph *phase) event(e int, step Speed) engine.Event {
	if e < 0 {
		return engine.Event{Step: StepStart}
	}
	return engine.Event{Engagement: ph.split.Engagements[e].ID, Step: step.String()}
}

// where prefixes a log text: "E1 normal", or "start" before the first
// engagement.
func (ph *phase) where(e int, step Speed) string {
	if e < 0 {
		return StepStart
	}
	return ph.split.Engagements[e].ID + " " + step.String()
}

func (ph *phase) log(ev engine.Event) {
	ev.Phase = "melee"
	ph.res.Events = append(ph.res.Events, ev)
}

func (ph *phase) label(i int) string { return label(ph.t.Disk(i)) }

// label names a disk for people: its id, and its name when it has one.
func label(d models.Disk) string {
	if d.Name != "" {
		return fmt.Sprintf("%s (%s)", d.ID, d.Name)
	}
	return d.ID
}

func attackName(attack string) string {
	if attack == AttackCounter {
		return "Counter Strength"
	}
	return "Strength"
}

func sortedKeys(m map[int]int) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// mergeSorted returns the union of two ascending lists, ascending.
func mergeSorted(a, b []int) []int {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
