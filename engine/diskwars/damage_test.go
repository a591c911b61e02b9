package diskwars

import (
	"errors"
	"maps"
	"testing"

	"tableref/engine"
	"tableref/models"
)

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func TestWound(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		held, amount, toughness int
		wantWounds, wantLeft    int
	}{
		{"damage below toughness stays", 0, 3, 6, 0, 3},
		{"damage equal to toughness is a wound", 0, 4, 4, 1, 0},
		{"twice the toughness is two wounds", 0, 8, 4, 2, 0},
		{"three times is three wounds", 0, 12, 4, 3, 0},
		{"what is left after a wound stays", 0, 5, 4, 1, 1},
		// "Déroulement de la partie", the dragon: a fireball of power 6
		// against toughness 9 leaves 6 damage; an attack of 3 then wounds.
		{"dragon: fireball 6 against toughness 9", 0, 6, 9, 0, 6},
		{"dragon: then an attack of 3 wounds it", 6, 3, 9, 1, 0},
		// "Rappel": toughness 4 with a bolt (3) needs a single point more.
		{"bolt then attack 1 against toughness 4", 3, 1, 4, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, left := Wound(tc.held, tc.amount, tc.toughness)
			if w != tc.wantWounds || left != tc.wantLeft {
				t.Errorf("Wound(%d, %d, %d): got %d wounds %d left, want %d wounds %d left", tc.held, tc.amount, tc.toughness, w, left, tc.wantWounds, tc.wantLeft)
			}
		})
	}
}

func TestWoundMomentary(t *testing.T) {
	for _, tc := range []struct {
		name                             string
		held, ordinary, momentary, tough int
		wantWounds, wantLeft             int
	}{
		{"momentary damage that does not wound vanishes", 2, 0, 1, 4, 0, 2},
		{"it adds to damage taken earlier in the turn", 2, 0, 2, 4, 1, 0},
		{"ordinary damage with it stays", 1, 1, 1, 4, 0, 2},
		{"the remainder never exceeds the ordinary damage", 0, 1, 6, 4, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, left := WoundMomentary(tc.held, tc.ordinary, tc.momentary, tc.tough)
			if w != tc.wantWounds || left != tc.wantLeft {
				t.Errorf("got %d wounds %d left, want %d wounds %d left", w, left, tc.wantWounds, tc.wantLeft)
			}
		})
	}
}

func TestDragonFireballThenAttack(t *testing.T) {
	// "Déroulement de la partie": a fireball of power 6 against a dragon
	// of toughness 9; the damage stays until the end of the turn, and any
	// creature attacking it with 3 then inflicts a wound. A dragon with
	// two wounds survives with one wound taken.
	dragon := fighter("dragon", "b", 0, 0, 4, 0, 6, 1, 9)
	dragon.Stats["wounds"] = 2
	dragon.Damage = 6
	att := fighter("att", "a", 5, 0, 2.5, 1, 3, 1, 3)
	r := resolve(t, layoutOf(dragon, att))
	if r.Wounds["dragon"] != 1 || r.Damage["dragon"] != 0 {
		t.Errorf("dragon: got %d wounds %d damage, want 1 wound 0 damage", r.Wounds["dragon"], r.Damage["dragon"])
	}
	if len(r.Casualties) != 0 {
		t.Errorf("casualties: got %v, want none", r.Casualties)
	}
	// The dragon's defence 1 leaves 1 damage on the attacker.
	if r.Damage["att"] != 1 {
		t.Errorf("attacker damage: got %d, want 1", r.Damage["att"])
	}
}

func TestEndTurnClearsDamageKeepsWounds(t *testing.T) {
	// "Fin de tour": Stéphane's toughness-6 disk took 3 damage from a
	// missile; it starts the next turn at full toughness 6. The Bouclier
	// on it lasted "jusqu'à la fin du tour" and goes; the magic wall stays
	// ("Ces murs restent en place tout le long de la partie").
	d := fighter("steph", "stephane", 0, 0, 2.5, 0, 2, 2, 3)
	d.Stats["wounds"] = 3
	hurt := fighter("hurt", "stephane", 20, 0, 2.5, 0, 2, 2, 2)
	hurt.Stats["wounds"] = 2
	wall := models.Disk{ID: "wall", Name: "Mur magique", Kind: models.KindSpell, X: 60, Y: 60, R: 2.5}
	l := layoutOf(d, hurt, spellOn("s1", "Bouclier", d), wall)
	l.Players = []string{"severine", "stephane", "pascal"}
	l.FirstPlayer = "pascal"
	bolt := models.Token{ID: "t1", Kind: "carreau", X: 0, Y: 0, R: 0.8}
	arrow := models.Token{ID: "t2", Kind: "arrow", X: 20, Y: 0, R: 0.8}
	l.Tokens = []models.Token{bolt, arrow, {ID: "w", Kind: "wound", X: 50, Y: 50, R: 0.5}}
	r := resolve(t, l)
	if r.Damage["steph"] != 3 || r.Wounds["hurt"] != 1 {
		// Bouclier makes steph's toughness 3 + 3 = 6 this turn.
		t.Fatalf("after missiles: got damage %v wounds %v, want steph 3 damage and hurt 1 wound", r.Damage, r.Wounds)
	}
	next := EndTurn(l, r)
	got, _ := next.Disk("steph")
	if got.Damage != 0 {
		t.Errorf("next turn damage: got %d, want 0", got.Damage)
	}
	if _, ok := next.Disk("s1"); ok {
		t.Errorf("the Bouclier disk is still on the table next turn")
	}
	if _, ok := next.Disk("wall"); !ok {
		t.Errorf("the magic wall left the table")
	}
	h, _ := next.Disk("hurt")
	if h.WoundsTaken != 1 {
		t.Errorf("wounds kept: got %d, want 1", h.WoundsTaken)
	}
	if len(next.Tokens) != 1 || next.Tokens[0].Kind != "wound" {
		t.Errorf("tokens left: got %+v, want only the wound marker", next.Tokens)
	}
	if next.FirstPlayer != "severine" {
		t.Errorf("next first player: got %q, want severine (on Pascal's left)", next.FirstPlayer)
	}
	if d0, _ := l.Disk("steph"); d0.Damage != 0 || len(l.Tokens) != 3 {
		t.Errorf("EndTurn changed its input")
	}
	_ = engine.NewTable(next)
}

// TestSurvivorsKeepWoundsAndDamage: the wound markers stay ("Fin de tour":
// "tous les marqueurs à l'exception des marqueurs blessures sont enlevés")
// and the damage held from earlier in the turn stays until the end of it
// ("Déroulement de la partie": the dragon and the fireball), whether or not
// the disk fights or is hit: melee.wounds and melee.damage name every
// surviving creature (/tmp/rev-dw/held.json).
func TestSurvivorsKeepWoundsAndDamage(t *testing.T) {
	dragon := fighter("dragon", "ann", 20, 20, 4, 0, 6, 5, 9)
	dragon.Stats["wounds"], dragon.Damage, dragon.WoundsTaken = 3, 6, 1
	orc := fighter("orc", "bob", 50, 20, 2.5, 0, 2, 2, 3)
	orc.Stats["wounds"], orc.WoundsTaken = 2, 1
	l := layoutOf(dragon, orc)
	r := resolve(t, l)
	if want := map[string]int{"dragon": 1, "orc": 1}; !maps.Equal(r.Wounds, want) {
		t.Errorf("wounds: got %v, want %v", r.Wounds, want)
	}
	if want := map[string]int{"dragon": 6}; !maps.Equal(r.Damage, want) {
		t.Errorf("damage: got %v, want %v", r.Damage, want)
	}
	// Damage already worth a wound is taken at the start, in contact or
	// not: 10 against toughness 9 is one more wound, 1 left.
	l.Disks[0].Damage = 10
	r = resolve(t, l)
	if r.Wounds["dragon"] != 2 || r.Damage["dragon"] != 1 || len(r.Casualties) != 0 {
		t.Errorf("dragon holding 10: got wounds %v, damage %v, casualties %v; want 2, 1, none", r.Wounds, r.Damage, r.Casualties)
	}
	// And the rest of the turn adds to it: arrows on both.
	l.Disks[0].Damage = 6
	l.Tokens = []models.Token{arrowAt("f", 50, 20), arrowAt("g", 20, 20)}
	r = resolve(t, l)
	if !maps.Equal(r.Wounds, map[string]int{"dragon": 1, "orc": 1}) || !maps.Equal(r.Damage, map[string]int{"dragon": 8, "orc": 2}) {
		t.Errorf("with arrows: got wounds %v, damage %v; want dragon 1 and orc 1, dragon 8 and orc 2", r.Wounds, r.Damage)
	}
}
