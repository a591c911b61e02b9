package whdiskwars

import (
	"fmt"
	"strings"

	"tableref/engine"
	"tableref/models"
)

// Token kinds that show a disk's state (the table model's "A token"):
// "Whenever damage is assigned to a disk, an equal number of Damage Tokens
// is placed on that disk as a reminder".
const (
	TokenDamage     = "damage"
	TokenWound      = "wound"
	TokenActivation = "activation"
)

// TokenState is what the state tokens lying on one disk show.
type TokenState struct {
	// Damage and Wounds are the summed values of the damage and wound
	// tokens; Activated is true when an activation token lies on the disk.
	Damage, Wounds int
	Activated      bool
	// DamageTokens and WoundTokens count the tokens, so that tokens worth
	// 0 in all are told from none.
	DamageTokens, WoundTokens int
}

// StateTokens reads the damage, wound and activation tokens (kinds
// compared without regard to case) and returns what lies on each disk, by
// layout index. A token lies on a disk when it touches that combatant and
// no other (engine.Table.Touches: vision's "touches" list, else the
// shapes); terrain and spell disks under it do not count. A token
// touching several combatants is ambiguous: a warning, and it counts for
// none; one touching none is ignored. "value" defaults to 1; a value below
// 1 is a warning and the token counts for nothing.
func StateTokens(t *engine.Table) ([]TokenState, []string) {
	states := make([]TokenState, t.Len())
	var warnings []string
	for k := range t.TokenLen() {
		tok := t.Token(k)
		kind := strings.ToLower(strings.TrimSpace(tok.Kind))
		if kind != TokenDamage && kind != TokenWound && kind != TokenActivation {
			continue
		}
		var on []int
		for _, i := range t.Touches(k) {
			if Combatant(t.Disk(i)) {
				on = append(on, i)
			}
		}
		switch {
		case len(on) == 0:
			continue
		case len(on) > 1:
			warnings = append(warnings, fmt.Sprintf("%s token %s touches %s: cannot tell which disk it lies on; not counted", kind, tok.ID, strings.Join(t.IDs(on), " and ")))
			continue
		}
		value := 1
		if tok.Value != nil {
			value = *tok.Value
		}
		if value < 1 && kind != TokenActivation {
			warnings = append(warnings, fmt.Sprintf("%s token %s on %s has value %d, less than 1; not counted", kind, tok.ID, t.ID(on[0]), value))
			continue
		}
		states[on[0]].add(kind, min(value, MaxStat+1))
	}
	return states, warnings
}

func (s *TokenState) add(kind string, value int) {
	switch kind {
	case TokenDamage:
		s.Damage = min(s.Damage+value, MaxStat+1)
		s.DamageTokens++
	case TokenWound:
		s.Wounds = min(s.Wounds+value, MaxStat+1)
		s.WoundTokens++
	case TokenActivation:
		s.Activated = true
	}
}

// diskState merges a disk's own state fields with the tokens lying on it.
// A field that is absent (or 0, false: the layout cannot tell them apart)
// is taken from the tokens; a field that is given wins, and tokens that
// disagree with it are a warning (counting both would count the same
// damage twice).
func diskState(d models.Disk, ts TokenState) (damage, wounds int, activated bool, warnings []string) {
	merge := func(field string, value int, kind string, tokens, count int) int {
		switch {
		case value == 0:
			return tokens
		case count > 0 && tokens != value:
			warnings = append(warnings, fmt.Sprintf("disk %s: %s %d but %s tokens worth %d lie on it; %s used", label(d), field, value, kind, tokens, field))
		}
		return value
	}
	damage = merge("damage", d.Damage, TokenDamage, ts.Damage, ts.DamageTokens)
	wounds = merge("wounds_taken", d.WoundsTaken, TokenWound, ts.Wounds, ts.WoundTokens)
	return damage, wounds, d.Activated || ts.Activated, warnings
}
