package whdiskwars

import (
	"cmp"
	"math"
	"slices"
)

// chooseTarget returns the enemy disk i strikes among live (the eligible
// enemies still in play, ascending): the first of the player's choices
// (Fighter.Targets) that is eligible, otherwise DefaultTarget.
func (ph *phase) chooseTarget(i int, live []int) int {
	for _, c := range ph.fighters[i].Targets {
		if slices.Contains(live, c) {
			return c
		}
	}
	return DefaultTarget(live, ph.res.Health, ph.fighters)
}

// DefaultTarget is the target the engine chooses for a disk whose player
// gave none (or whose chosen target is not eligible any more): the
// eligible enemy that needs the least Physical damage to suffer a wound
// (toughness minus damage on it, about doubled when it is Resistant,
// never when it is Immune), the first in layout order on a tie. A player
// who wants otherwise writes "target" on the disk.
func DefaultTarget(live []int, health []Health, fighters []Fighter) int {
	return slices.MinFunc(live, func(a, b int) int {
		return cmp.Or(cmp.Compare(ToWound(health[a], fighters[a].Profile), ToWound(health[b], fighters[b].Profile)), cmp.Compare(a, b))
	})
}

// ToWound returns the Physical damage one instance must deal to a disk to
// wound it: math.MaxInt when it is Immune.
func ToWound(h Health, p Profile) int {
	need := max(h.Toughness-h.Damage, 1)
	switch {
	case p.Immune[Physical]:
		return math.MaxInt
	case p.Resistant[Physical]:
		return 2*need - 1
	}
	return need
}
