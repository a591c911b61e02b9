package diskwars

import (
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Contacts between creatures
//
// The book's contact rule ("En contact") reads "S'il y a un Disk entre deux
// Disks qui se chevauchent, ils ne se touchent pas", and its "Note
// importante" says that "quand nous ferons référence à un Disk, il sera
// question de créature": only a creature lying between two disks keeps
// them apart. A spell disk left on its target as a reminder, or a disk of
// unknown kind without stats, does not. Neither does a creature destroyed
// this turn ("les Disks éliminés sont immédiatement retirés"), nor one
// that had already taken all its wounds (spent).
//
// The report's geometry ("contacts") keeps the spec's relation, where any
// disk in between keeps two disks apart; every rule of this package
// (missile hits, blocking, shooting, melee, spells, moves) reads the
// relation below, computed with those disks taken off the table.

// contacts is the contact relation the Diskwars rules read: the table's
// own relation when no disk had to be taken off, else the one computed
// without them.
type contacts struct {
	t        *engine.Table
	pins, by [][]int // nil: the table's own relation
}

// creatureContacts returns the contact relation among the creatures still
// standing (and terrain, at the bottom), without the disks gone reports
// (nil: none), the spell disks, the unidentified disks and the spent
// creatures.
func creatureContacts(t *engine.Table, gone func(int) bool) contacts {
	off := func(i int) bool { return liftedOff(t.Disk(i)) || (gone != nil && gone(i)) }
	for i := range t.Len() {
		if off(i) {
			pins, by := t.ContactsWithout(off)
			return contacts{t: t, pins: pins, by: by}
		}
	}
	return contacts{t: t}
}

// liftedOff reports whether disk d is taken off the table for the rules'
// contacts: a spell disk, a disk that is neither creature nor terrain, or
// a spent creature. Terrain stays: it lies at the bottom and never comes
// between two creatures.
func liftedOff(d models.Disk) bool {
	return !d.IsTerrain() && (!IsCreature(d) || spent(d))
}

// spent reports whether creature d has already taken all its wounds
// (wounds_taken ≥ stats.wounds, default 1): it should no longer be on the
// table. An invalid wounds stat is left for CreatureOf to report.
func spent(d models.Disk) bool {
	if !IsCreature(d) || d.WoundsTaken <= 0 {
		return false
	}
	w, ok := d.Stat("wounds")
	if !ok {
		w = 1
	}
	return w >= 1 && d.WoundsTaken >= w
}

// spentWarnings warns of every spent creature on the table: it is read as
// already removed, and is not a casualty of this turn.
func spentWarnings(t *engine.Table) []string {
	var out []string
	for _, d := range t.Disks() {
		if spent(d) {
			w, ok := d.Stat("wounds")
			if !ok {
				w = 1
			}
			out = append(out, fmt.Sprintf("disk %q has taken %d wounds out of %d: it should already be off the table; it is left out (it neither fights, blocks nor is hit, and is not a casualty of this turn)", d.ID, d.WoundsTaken, w))
		}
	}
	return out
}

// Pins returns the disks disk i lies on, in contact, ascending (shared:
// do not change).
func (c contacts) Pins(i int) []int {
	if c.pins == nil {
		return c.t.Pins(i)
	}
	return c.pins[i]
}

// PinnedBy returns the disks lying on disk i, in contact, ascending
// (shared: do not change).
func (c contacts) PinnedBy(i int) []int {
	if c.by == nil {
		return c.t.PinnedBy(i)
	}
	return c.by[i]
}

// OnTop reports whether disk top lies on disk bottom, in contact.
func (c contacts) OnTop(top, bottom int) bool {
	_, found := slices.BinarySearch(c.Pins(top), bottom)
	return found
}

// InContact reports whether disks i and j are in contact, either way up.
func (c contacts) InContact(i, j int) bool { return c.OnTop(i, j) || c.OnTop(j, i) }

// Contacts returns every pair of the relation, ordered by the top disk's
// index, then the bottom's.
func (c contacts) Contacts() []engine.Contact {
	var out []engine.Contact
	for top := range c.t.Len() {
		for _, b := range c.Pins(top) {
			out = append(out, engine.Contact{Top: top, Bottom: b})
		}
	}
	return out
}
