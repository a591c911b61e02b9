package greatwar

import (
	"fmt"
	"slices"
)

// Versions of the campaign rules. A campaign is played under the version
// its setup event names (`"rules_version"`); a setup without one is played
// under RulesOriginal.
//
// A ledger derives a campaign's state by replaying its stored events and
// refuses the whole database when an event no longer gives the effects
// recorded with it. So a fix that changes what an event does, or refuses
// an event that was once accepted, applies only from the version that
// introduced it: the campaigns recorded before keep replaying as they
// were recorded.
const (
	// RulesOriginal are the rules before versions existed. Kept for the
	// replay of stored campaigns: a second spelling of a unit is a unit
	// of its own; only the buyer's own unique flag makes a contested
	// purchase; a Familiar flagged unique is a unique; a death clears the
	// wounds and damage of every disk of that name and records only the
	// unit; Resurrection asks no player; a second playing order replaces
	// the first; the points of a starting army may wrap round.
	RulesOriginal = 0
	// Rules1 fixes those: one spelling of a unit per player (the first
	// given), a name flagged unique in any order of a purchase is unique
	// in every order of it, the Familiar is never unique (one per player),
	// a death clears the marks of a name only with its last disk and
	// records what it clears, Resurrection revives the disk for the player
	// who owned it, one playing order a turn, starting army points that
	// overflow are refused.
	Rules1 = 1
	// Rules2 compares the names of the units the text limits in number
	// (Familiar, Catapult) the way a player writes them: "Catapults" is a
	// Catapult, so it counts towards the Knights' 2 Catapults, a second
	// Familiar bought as "Familiars" is refused and is no unique, and a
	// player's disks of such a name are kept under the spelling in play.
	// Under an earlier version, an item that only this rule refuses is
	// accepted as it was recorded, and the state's Warnings say so.
	Rules2 = 2
	// CurrentRules is the version new campaigns should name.
	CurrentRules = Rules2
)

// setRules checks and keeps the rules version a setup event names.
func (s *State) setRules(v int) error {
	if v < RulesOriginal || v > CurrentRules {
		return fmt.Errorf("rules_version %d: this tableref knows versions %d to %d", v, RulesOriginal, CurrentRules)
	}
	s.RulesVersion = v
	return nil
}

// since reports whether the campaign is played under rules version v or
// a later one.
func (s *State) since(v int) bool { return s.RulesVersion >= v }

// warn records in Warnings that an earlier rules version accepts what
// version v refuses (err), for player p's item.
func (s *State) warn(p Player, item string, v int, err error) {
	s.Warnings = append(s.Warnings, fmt.Sprintf("turn %d: %s's %s: accepted under rules version %d, though rules version %d refuses it: %v",
		s.Turn, p.Name, item, s.RulesVersion, v, err))
}

// unitKey is the form in which the campaign compares a unit's names: the
// normal form, and from Rules2 on a limited unit's plural read as the
// unit (UnitKey).
func (s *State) unitKey(name string) string { return UnitKey(name, s.since(Rules2)) }

// unitName returns the name under which a player's unit of that name is
// kept: from Rules1 on, the spelling already in play (compared by
// unitKey), so that two spellings of one unit never coexist; else the
// name as given.
func (s *State) unitName(player, name string) string {
	if !s.since(Rules1) {
		return name
	}
	if k := s.spellings(player, s.unitKey(name)); len(k) > 0 {
		return k[0]
	}
	return name
}

// spellings returns, sorted, the names under which a player holds units of
// a name in unitKey form: one from Rules1 on, possibly several in a
// campaign recorded under the original rules.
func (s *State) spellings(player, key string) []string {
	var out []string
	for name := range s.Units[player] {
		if s.unitKey(name) == key {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
