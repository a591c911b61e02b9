package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tableref/engine"
	"tableref/models"
)

// Tally is the damage and wounds on a disk, and whether it was destroyed.
type Tally struct {
	Damage, Wounds int
	Casualty       bool
}

// Proposal is what a ruling says should happen to one disk's tally. It
// enters the damage tracker only when the player confirms it.
type Proposal struct {
	// Ruling numbers the ruling the proposal comes from; a proposal is
	// confirmed at most once per ruling.
	Ruling int
	Disk   string
	Name   string
	Before Tally
	After  Tally
	// Why says where it comes from ("melee", "hit by a1").
	Why string
}

// String says the proposal in words: "Orc Warband: damage 0 → 2".
func (p Proposal) String() string {
	name := p.Name
	if name == "" {
		name = p.Disk
	}
	s := name + ":"
	if p.After.Damage != p.Before.Damage {
		s += fmt.Sprintf(" damage %d → %d", p.Before.Damage, p.After.Damage)
	}
	if p.After.Wounds != p.Before.Wounds {
		s += fmt.Sprintf(" wounds %d → %d", p.Before.Wounds, p.After.Wounds)
	}
	if p.After.Casualty && !p.Before.Casualty {
		s += " destroyed"
	}
	return s + " (" + p.Why + ")"
}

// Entry is one confirmed change in the damage tracker.
type Entry struct {
	Ruling        int
	Disk          string
	Before, After Tally
	Note          string
}

// DamageTracker is the game's record of damage and wounds. It changes
// only through Confirm and Adjust, both the player's acts; rulings only
// propose. It is not safe for concurrent use.
type DamageTracker struct {
	tally   map[string]Tally
	history []Entry
}

// Tally returns the disk's recorded tally and whether it has one.
func (t *DamageTracker) Tally(id string) (Tally, bool) {
	v, ok := t.tally[id]
	return v, ok
}

// History returns the confirmed entries, oldest first.
func (t *DamageTracker) History() []Entry { return slices.Clone(t.history) }

// Confirmed reports whether the proposal was already confirmed.
func (t *DamageTracker) Confirmed(p Proposal) bool {
	for _, e := range t.history {
		if e.Ruling == p.Ruling && p.Ruling != 0 && e.Disk == p.Disk {
			return true
		}
	}
	return false
}

// Confirm records a proposal. A proposal of a ruling already confirmed
// for the disk is refused.
func (t *DamageTracker) Confirm(p Proposal) error {
	if t.Confirmed(p) {
		return fmt.Errorf("ruling %d for %s is already in the tracker", p.Ruling, p.Disk)
	}
	t.set(Entry{Ruling: p.Ruling, Disk: p.Disk, Before: t.current(p.Disk, p.Before), After: p.After, Note: p.Why})
	return nil
}

// Adjust changes a disk's tally by hand (the player's +1/-1 buttons);
// nothing goes below zero.
func (t *DamageTracker) Adjust(id string, base Tally, dDamage, dWounds int) {
	before := t.current(id, base)
	after := before
	after.Damage = max(0, after.Damage+dDamage)
	after.Wounds = max(0, after.Wounds+dWounds)
	t.set(Entry{Disk: id, Before: before, After: after, Note: "by hand"})
}

// Undo takes back the last entry and reports whether there was one.
func (t *DamageTracker) Undo() bool {
	if len(t.history) == 0 {
		return false
	}
	e := t.history[len(t.history)-1]
	t.history = t.history[:len(t.history)-1]
	t.tally[e.Disk] = e.Before
	return true
}

func (t *DamageTracker) current(id string, base Tally) Tally {
	if v, ok := t.tally[id]; ok {
		return v
	}
	return base
}

func (t *DamageTracker) set(e Entry) {
	if t.tally == nil {
		t.tally = map[string]Tally{}
	}
	t.tally[e.Disk] = e.After
	t.history = append(t.history, e)
}

// Proposals reads what a ruling says should change on each disk and
// proposes it against the tracker's tally, so that after confirming them
// the tracker agrees with "tableref analyze" on the same table.
//
// What the ruling says. When the report has a melee (diskwars,
// whdiskwars), the melee is the state after the turn: a casualty is
// destroyed, a survivor holds melee.damage and melee.wounds. The report's
// top-level damage is then the damage dealt this turn (for diskwars,
// missiles and melee together, part of it since turned into wounds or
// taken by casualties), which the melee already accounts for: it is read
// only to name the hitters and to tell that a survivor missing from
// melee.damage holds none, as is also the case when its wounds changed
// (a ruleset leaves out the disks it did not look at). Without a melee,
// the damage map is damage dealt and is added as it is. A report with
// neither (geometry) proposes nothing.
//
// Against what. The ruling's change is measured from the layout's own
// state (its damage and wounds_taken) and applied to the tally the disk
// had before any ruling of the same table was confirmed; sameTable
// reports which earlier rulings were made on this table (nil: none). So a
// table ruled again after a correction or a change of rules replaces
// what was confirmed from it instead of adding to it, and a ruling that
// agrees with what was confirmed proposes nothing.
//
// Disks with no change are left out; the order is the layout's.
func Proposals(ruling int, rep engine.Report, l models.Layout, t *DamageTracker, sameTable func(ruling int) bool) []Proposal {
	if rep.Melee == nil && rep.Damage == nil {
		return nil
	}
	var out []Proposal
	for _, d := range l.Disks {
		now := t.current(d.ID, Tally{Damage: d.Damage, Wounds: d.WoundsTaken})
		base, earlier := t.without(d.ID, now, sameTable)
		after, why := ruled(rep, d, base)
		after.Damage, after.Wounds = max(0, after.Damage), max(0, after.Wounds)
		if after == now {
			continue
		}
		if len(earlier) > 0 {
			if why == "" {
				why = "no longer in the ruling"
			}
			why = joinWhy(why, "replaces ruling "+joinInts(earlier))
		}
		out = append(out, Proposal{Ruling: ruling, Disk: d.ID, Name: d.Name, Before: now, After: after, Why: why})
	}
	return out
}

// ruled returns the tally the report gives disk d, starting from base,
// and why ("" when the report changes nothing on it).
func ruled(rep engine.Report, d models.Disk, base Tally) (Tally, string) {
	after := base
	if m := rep.Melee; m != nil {
		if slices.Contains(m.Casualties, d.ID) {
			after.Casualty = true
		} else {
			wounds, wounded := m.Wounds[d.ID]
			wounded = wounded && wounds != d.WoundsTaken
			if wounded {
				after.Wounds += wounds - d.WoundsTaken
			}
			held, ok := m.Damage[d.ID]
			if ok || wounded || rep.Damage[d.ID] > 0 {
				after.Damage += held - d.Damage
			}
		}
	} else {
		after.Damage += rep.Damage[d.ID]
	}
	if after == base {
		return after, ""
	}
	return after, reasons(rep, d.ID)
}

// reasons says where a change comes from: the projectiles that hit the
// disk, the melee it fought in, else "ruling".
func reasons(rep engine.Report, id string) string {
	why := hitters(rep, id)
	for _, e := range rep.Engagements {
		if slices.Contains(e.Attackers, id) || slices.Contains(e.Defenders, id) {
			why = joinWhy(why, "melee")
			break
		}
	}
	if why == "" {
		return "ruling"
	}
	return why
}

// without returns the tally disk id would have, now being its tally,
// without the confirmed entries of the rulings sameTable reports, and the
// numbers of those rulings. A count may come out negative when the player
// took off by hand more than a ruling gave; the caller clamps the result.
func (t *DamageTracker) without(id string, now Tally, sameTable func(int) bool) (Tally, []int) {
	if sameTable == nil {
		return now, nil
	}
	base := now
	var rulings []int
	for _, e := range t.history {
		if e.Disk != id || e.Ruling == 0 || !sameTable(e.Ruling) {
			continue
		}
		base.Damage -= e.After.Damage - e.Before.Damage
		base.Wounds -= e.After.Wounds - e.Before.Wounds
		if e.After.Casualty && !e.Before.Casualty {
			base.Casualty = false
		}
		if !slices.Contains(rulings, e.Ruling) {
			rulings = append(rulings, e.Ruling)
		}
	}
	return base, rulings
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

func hitters(rep engine.Report, id string) string {
	var toks []string
	for _, h := range rep.Hits {
		if slices.Contains(h.Disks, id) {
			toks = append(toks, h.Token)
		}
	}
	if len(toks) == 0 {
		return ""
	}
	return "hit by " + fmt.Sprint(toks)
}

func joinWhy(a, b string) string {
	if a == "" {
		return b
	}
	return a + ", " + b
}

// Activations tracks which creatures have acted this turn.
type Activations struct {
	Turn int
	done map[string]bool
}

// Done reports whether the disk has acted this turn.
func (a *Activations) Done(id string) bool { return a.done[id] }

// Set marks the disk as having acted or not.
func (a *Activations) Set(id string, done bool) {
	if a.done == nil {
		a.done = map[string]bool{}
	}
	a.done[id] = done
}

// NewTurn clears every mark and counts the turn.
func (a *Activations) NewTurn() {
	a.Turn++
	a.done = map[string]bool{}
}

// Observe marks the disks the table shows as activated: the disk's own
// activated field, or an activation token touching it.
func (a *Activations) Observe(rep engine.Report, l models.Layout) {
	for _, d := range l.Disks {
		if d.Activated {
			a.Set(d.ID, true)
		}
	}
	kinds := map[string]string{}
	for _, t := range l.Tokens {
		kinds[t.ID] = t.Kind
	}
	for _, h := range rep.Touches {
		if kinds[h.Token] == "activation" {
			for _, id := range h.Disks {
				a.Set(id, true)
			}
		}
	}
}
