package ui

import (
	"fmt"
	"slices"

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

// Proposals reads what a ruling says should change on each disk. The
// report's melee gives the damage and wounds after the phase, computed
// from the layout's own state: the change from the layout is added to the
// tracker's tally. The report's damage map (damage dealt, by hits) is
// added as it is. Disks with no change are left out; the order is the
// layout's.
func Proposals(ruling int, rep engine.Report, l models.Layout, t *DamageTracker) []Proposal {
	var out []Proposal
	for _, d := range l.Disks {
		base := t.current(d.ID, Tally{Damage: d.Damage, Wounds: d.WoundsTaken})
		after, why := base, ""
		if m := rep.Melee; m != nil {
			if v, ok := m.Damage[d.ID]; ok && v != d.Damage {
				after.Damage += v - d.Damage
				why = "melee"
			}
			if v, ok := m.Wounds[d.ID]; ok && v != d.WoundsTaken {
				after.Wounds += v - d.WoundsTaken
				why = "melee"
			}
			if slices.Contains(m.Casualties, d.ID) {
				after.Casualty = true
				why = "melee"
			}
		}
		if v := rep.Damage[d.ID]; v != 0 {
			after.Damage += v
			why = joinWhy(why, hitters(rep, d.ID))
		}
		if after != base {
			out = append(out, Proposal{Ruling: ruling, Disk: d.ID, Name: d.Name, Before: base, After: after, Why: why})
		}
	}
	return out
}

func hitters(rep engine.Report, id string) string {
	var toks []string
	for _, h := range rep.Hits {
		if slices.Contains(h.Disks, id) {
			toks = append(toks, h.Token)
		}
	}
	if len(toks) == 0 {
		return "ruling"
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
