package whdiskwars

import (
	"slices"
	"strings"

	"tableref/models"
)

// Health is a disk's state against damage: its Toughness and Stamina and
// the Damage and Wounds on it.
//
// Damage stays on a disk until it equals or exceeds its Toughness; then
// the damage is cleared and the disk suffers a Wound. A disk is removed as
// a casualty when it has suffered more wounds than its Stamina ("Damage").
type Health struct {
	Toughness, Stamina int
	Damage, Wounds     int
}

// Applied tells what one instance of damage did to a disk.
type Applied struct {
	// Dealt is the damage the instance carried, Taken what reached the
	// disk after Immune and Resistant.
	Dealt, Taken int
	// Immune and Halved tell why Taken is less than Dealt.
	Immune, Halved bool
	// Wounded: the damage reached the toughness, so the disk took a wound
	// and its damage was cleared; Wasted is what was beyond the toughness
	// (discarded: "any leftover damage is wasted").
	Wounded bool
	Wasted  int
	// Destroyed: the disk now has more wounds than its stamina (whether or
	// not this instance wounded it).
	Destroyed bool
}

// Take applies one instance of damage that reaches the disk (after Immune
// and Resistant, see Reduce). Within one instance at most one wound is
// inflicted: "all damage dealt by an attack or ability is simultaneous, so
// if it's enough to wound a disk, any leftover damage is wasted". Negative
// amounts count as zero.
func (h Health) Take(amount int) (Health, Applied) {
	amount = max(amount, 0)
	a := Applied{Dealt: amount, Taken: amount}
	if amount == 0 {
		return h, a
	}
	h.Damage += amount
	h, a = h.Settle()
	a.Dealt, a.Taken = amount, amount
	return h, a
}

// Settle applies to the damage and wounds already on the disk what the
// rules apply "at any time": damage that equals or exceeds the toughness
// becomes one wound and is cleared (Wasted is what was beyond the
// toughness), and the disk is Destroyed when it then has more wounds than
// its stamina ("a disk is removed as a casualty whenever it has suffered
// more wounds than its Stamina"). Dealt and Taken are 0. Take settles
// after every instance; the Melee Phase settles a disk photographed past
// its limits before anyone strikes. A health with toughness below 1 is
// not a fighter's and is always wounded.
func (h Health) Settle() (Health, Applied) {
	var a Applied
	if h.Damage >= h.Toughness {
		a.Wounded = true
		a.Wasted = h.Damage - h.Toughness
		h.Damage = 0
		h.Wounds++
	}
	a.Destroyed = h.Wounds > h.Stamina
	return h, a
}

// Reduce returns the damage an instance of the given type deals to a disk
// with profile p: none when the disk is Immune to the type, half rounded
// up when it is Resistant ("takes only half the amount of damage each
// time it is dealt damage by X, rounded up"). The amount is the sum of
// everything dealt in the instance: "All damage dealt in a single
// instance ... is added up before halving."
func Reduce(amount int, damageType string, p Profile) (taken int, immune, halved bool) {
	amount = max(amount, 0)
	switch {
	case p.Immune[damageType]:
		return 0, true, false
	case p.Resistant[damageType]:
		return (amount + 1) / 2, false, true
	}
	return amount, false, false
}

// Deal applies one instance of damage of the given type: Reduce, then
// Take. It is the whole of "a disk is dealt damage" for one instance.
func Deal(h Health, p Profile, amount int, damageType string) (Health, Applied) {
	taken, immune, halved := Reduce(amount, damageType, p)
	h, a := h.Take(taken)
	a.Dealt, a.Immune, a.Halved = max(amount, 0), immune, halved
	return h, a
}

// EndPhase returns the layout after the End Phase: every disk in play
// loses its damage and its activation, and the damage and activation
// tokens are taken off the table; wounds and wound tokens stay ("All
// tokens (except for Wound tokens) are removed from disks in play").
// Tokens of other kinds are left as they are. The layout given is not
// changed.
func EndPhase(l models.Layout) models.Layout {
	out := l.Clone()
	for i := range out.Disks {
		out.Disks[i].Damage = 0
		out.Disks[i].Activated = false
	}
	out.Tokens = slices.DeleteFunc(out.Tokens, func(t models.Token) bool {
		kind := strings.ToLower(strings.TrimSpace(t.Kind))
		return kind == TokenDamage || kind == TokenActivation
	})
	return out
}
