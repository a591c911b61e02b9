package diskwars

import (
	"errors"
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
