package whdiskwars

import (
	"fmt"

	"tableref/engine"
	"tableref/models"
)

// StepStart is the step of the log events that happen before the first
// engagement: the corrections of disks photographed past their limits,
// and what their removal uncovers.
const StepStart = "start"

// Correction is a disk in an engagement photographed past its limits, and
// what the Melee Phase applied to it before the first engagement: "Damage
// stays on a disk until it equals or exceeds (at any time) that disk's
// Toughness. When this happens, all the damage tokens are removed and the
// disk suffers a Wound ... a disk is removed as a casualty whenever it
// has suffered more wounds than its Stamina."
type Correction struct {
	Disk int
	// Before is the health photographed, After the health settled.
	Before, After Health
	// Applied says what Settle did: Wounded, Wasted, Destroyed.
	Applied Applied
}

// settleStart settles every disk in an engagement before anyone strikes
// (Health.Settle): the wound a disk's damage should already have made is
// applied, and a disk with more wounds than its stamina is removed, so it
// neither strikes nor is struck. Disks in no engagement are left as they
// are: their stats are not required, so their toughness may be unknown.
func (ph *phase) settleStart() {
	var destroyed []int
	for i := range ph.fighters {
		if ph.split.AttackIn[i] < 0 && ph.split.DefendIn[i] < 0 {
			continue
		}
		before := ph.res.Health[i]
		h, a := before.Settle()
		if !a.Wounded && !a.Destroyed {
			continue
		}
		ph.res.Health[i] = h
		ph.res.Corrections = append(ph.res.Corrections, Correction{Disk: i, Before: before, After: h, Applied: a})
		ph.logCorrection(i, before, h, a)
		if a.Destroyed {
			destroyed = append(destroyed, i)
		}
	}
	ph.remove(-1, Normal, destroyed)
}

// logCorrection says what was applied to disk i before the first
// engagement, and that the photographed table did not show it.
func (ph *phase) logCorrection(i int, before, h Health, a Applied) {
	ev := engine.Event{Step: StepStart, To: ph.t.ID(i)}
	if a.Wounded {
		ev.Kind, ev.Amount = "wound", 1
		ev.Text = fmt.Sprintf("start: %s was photographed with damage %d, at least its toughness %d, and without the wound that damage makes: "+
			"it suffers that wound now, before anyone strikes (damage %d removed, %d of it beyond the toughness and wasted); wounds %d, stamina %d",
			ph.label(i), before.Damage, h.Toughness, before.Damage, a.Wasted, h.Wounds, h.Stamina)
		ph.log(ev)
	}
	if a.Destroyed {
		ev.Kind, ev.Amount = "casualty", 0
		ev.Text = fmt.Sprintf("start: %s has %d wounds, more than its stamina %d, but was photographed still in play: "+
			"it is removed as a casualty now, before anyone strikes; it neither strikes nor is struck", ph.label(i), h.Wounds, h.Stamina)
		ph.log(ev)
	}
}

// stateWarnings reports a disk in an engagement photographed past its
// limits ("Damage stays on a disk until it equals or exceeds (at any
// time) that disk's Toughness", "a disk is removed as a casualty whenever
// it has suffered more wounds than its Stamina") and says what the Melee
// Phase applies before anyone strikes (settleStart).
func stateWarnings(d models.Disk, h Health) []string {
	settled, a := h.Settle()
	var w []string
	if a.Wounded {
		w = append(w, fmt.Sprintf("disk %s starts with damage %d, at least its toughness %d: it should already have taken a wound; "+
			"the wound is applied before anyone strikes (damage removed; wounds %d, stamina %d)", label(d), h.Damage, h.Toughness, settled.Wounds, settled.Stamina))
	}
	if !a.Destroyed {
		return w
	}
	why := fmt.Sprintf("starts with %d wounds, more than its stamina %d", h.Wounds, h.Stamina)
	if h.Wounds <= h.Stamina {
		why = fmt.Sprintf("then has %d wounds, more than its stamina %d", settled.Wounds, settled.Stamina)
	}
	w = append(w, fmt.Sprintf("disk %s %s: it should already be a casualty; it is removed before anyone strikes and neither strikes nor is struck; the engagements are those of the table without it", label(d), why))
	return w
}
