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
	// CurrentRules is the version new campaigns should name.
	CurrentRules = Rules1
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

// unitName returns the name under which a player's unit of that name is
// kept: from Rules1 on, the spelling already in play (compared in normal
// form), so that two spellings of one unit never coexist; else the name
// as given.
func (s *State) unitName(player, name string) string {
	if !s.since(Rules1) {
		return name
	}
	if k := s.spellings(player, NormalName(name)); len(k) > 0 {
		return k[0]
	}
	return name
}

// spellings returns, sorted, the names under which a player holds units of
// a normalised name: one from Rules1 on, possibly several in a campaign
// recorded under the original rules.
func (s *State) spellings(player, norm string) []string {
	var out []string
	for name := range s.Units[player] {
		if NormalName(name) == norm {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
