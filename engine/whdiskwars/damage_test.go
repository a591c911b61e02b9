package whdiskwars

import (
	"testing"

	"tableref/models"
)

// Figure 1 of shared/seeds/001_5f6384918549c6a5.txt: "Karl Franz already
// had 4 damage token on it, so after the hit he has suffered a cumulative
// 10 damage. Five of them (equal to his Toughness) are enough to cause a
// Wound on him, while the other five are discarded." Stamina 1 chosen
// (the text only says he suffers a wound).
func TestFigure1OneInstanceWoundsOnceAndWastesTheRest(t *testing.T) {
	karl := Health{Toughness: 5, Stamina: 1, Damage: 4}
	got, a := karl.Take(6)
	want := Health{Toughness: 5, Stamina: 1, Damage: 0, Wounds: 1}
	if got != want {
		t.Errorf("Karl Franz after 6 damage: got %+v, want %+v", got, want)
	}
	if !a.Wounded || a.Wasted != 5 || a.Destroyed {
		t.Errorf("applied: got %+v, want a wound, 5 wasted, not destroyed", a)
	}
}

// Figure 2: "the Steam Tank is able to make a ranged attack against the
// River Troll, causing 2 hits for a total of 6 damage, enough to wound the
// troll, and then to flip in order to apply another 3 Impact damage." Two
// instances, each checked on its own. Chosen: with toughness 5 the second
// instance leaves 3 damage; with toughness 3 it is a second wound, where
// one instance of 9 would have made only one.
func TestFigure2EachInstanceIsCheckedOnItsOwn(t *testing.T) {
	tests := []struct {
		name       string
		troll      Health
		wantWounds int
		wantDamage int
		wantDead   bool
	}{
		{"toughness 5: a wound, then 3 damage", Health{Toughness: 5, Stamina: 1}, 1, 3, false},
		{"toughness 3: two wounds, destroyed", Health{Toughness: 3, Stamina: 1}, 2, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, first := tt.troll.Take(6) // ranged attack: 2 hits, one instance
			if !first.Wounded {
				t.Fatalf("ranged attack: got no wound, want the 6 damage to wound the troll")
			}
			h, second := h.Take(3) // Impact
			if h.Wounds != tt.wantWounds || h.Damage != tt.wantDamage || second.Destroyed != tt.wantDead {
				t.Errorf("got wounds %d damage %d destroyed %v, want %d %d %v", h.Wounds, h.Damage, second.Destroyed, tt.wantWounds, tt.wantDamage, tt.wantDead)
			}
			summed, _ := tt.troll.Take(9)
			if summed.Wounds != 1 {
				t.Errorf("one instance of 9: got %d wounds, want 1 (the rest wasted)", summed.Wounds)
			}
		})
	}
}

func TestTake(t *testing.T) {
	tests := []struct {
		name  string
		h     Health
		dmg   int
		want  Health
		wound bool
		dead  bool
	}{
		{"below toughness stays as damage", Health{Toughness: 4}, 3, Health{Toughness: 4, Damage: 3}, false, false},
		{"equal to toughness wounds", Health{Toughness: 4}, 4, Health{Toughness: 4, Wounds: 1}, true, true},
		{"adds to damage already there", Health{Toughness: 4, Damage: 2}, 2, Health{Toughness: 4, Wounds: 1}, true, true},
		{"stamina 1 survives the first wound", Health{Toughness: 4, Stamina: 1}, 9, Health{Toughness: 4, Stamina: 1, Wounds: 1}, true, false},
		{"stamina 1 dies of the second", Health{Toughness: 4, Stamina: 1, Wounds: 1}, 4, Health{Toughness: 4, Stamina: 1, Wounds: 2}, true, true},
		{"zero changes nothing", Health{Toughness: 4, Damage: 1}, 0, Health{Toughness: 4, Damage: 1}, false, false},
		{"negative counts as zero", Health{Toughness: 4, Damage: 1}, -3, Health{Toughness: 4, Damage: 1}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, a := tt.h.Take(tt.dmg)
			if got != tt.want || a.Wounded != tt.wound || a.Destroyed != tt.dead {
				t.Errorf("got %+v wounded %v destroyed %v, want %+v %v %v", got, a.Wounded, a.Destroyed, tt.want, tt.wound, tt.dead)
			}
		})
	}
}

// "Immune (X): A disk with immune (X) cannot be targeted or damaged by X";
// "Resistant (X) ... takes only half the amount of damage ... rounded up";
// "All damage dealt in a single instance ... is added up before halving."
func TestReduce(t *testing.T) {
	immune, _ := ParseProfile([]string{"immune:physical"})
	resistant, _ := ParseProfile([]string{"resistant:physical"})
	arcaneOnly, _ := ParseProfile([]string{"immune:arcane", "resistant:arcane"})
	tests := []struct {
		name   string
		p      Profile
		amount int
		typ    string
		want   int
	}{
		{"immune takes none", immune, 7, Physical, 0},
		{"immune to another type takes all", immune, 7, "arcane", 7},
		{"resistant halves, rounding up", resistant, 7, Physical, 4},
		{"resistant halves an even sum", resistant, 6, Physical, 3},
		{"resistant to 1 still takes 1", resistant, 1, Physical, 1},
		{"3 + 4 summed before halving is 4, not 2 + 2", resistant, 3 + 4, Physical, 4},
		{"arcane keywords do not touch physical", arcaneOnly, 5, Physical, 5},
		{"untyped damage is not physical", immune, 5, "untyped", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _, _ := Reduce(tt.amount, tt.typ, tt.p); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

// The End Phase: "All tokens (except for Wound tokens) are removed from
// disks in play: this includes damage, activation tokens".
func TestEndPhaseClearsDamageAndActivationKeepsWounds(t *testing.T) {
	l := models.Layout{Version: 1, Disks: []models.Disk{
		{ID: "a", R: 2, Damage: 3, WoundsTaken: 1, Activated: true},
		{ID: "b", R: 2},
	}}
	got := EndPhase(l)
	if d := got.Disks[0]; d.Damage != 0 || d.Activated || d.WoundsTaken != 1 {
		t.Errorf("after the End Phase: got damage %d activated %v wounds %d, want 0 false 1", d.Damage, d.Activated, d.WoundsTaken)
	}
	if l.Disks[0].Damage != 3 || !l.Disks[0].Activated {
		t.Errorf("EndPhase changed the layout it was given")
	}
}
