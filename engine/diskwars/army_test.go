package diskwars

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckArmy(t *testing.T) {
	bard := ArmyEntry{Name: "Barde elfe", Faction: "elves", Rim: "green", Points: 5}
	for _, tc := range []struct {
		name  string
		army  Army
		legal bool
		want  []string // fragments of the violations, in order
		total int
	}{
		{
			// "Préparation du jeu": the Elf Bard is worth 5 PA; ten of them
			// cost 50 PA.
			name:  "Préparation du jeu: ten Elf Bards cost 50 points",
			army:  Army{PointsLimit: 50, Creatures: []ArmyEntry{{Name: "Barde elfe", Faction: "elves", Rim: "green", Points: 5, Count: 10}}},
			legal: true, total: 50,
		},
		{
			name:  "one point over the limit",
			army:  Army{PointsLimit: 49, Creatures: []ArmyEntry{{Name: "Barde elfe", Faction: "elves", Rim: "green", Points: 5, Count: 10}}},
			want:  []string{"costs 50 points, more than the limit of 49"},
			total: 50,
		},
		{
			// "Préparation du jeu", note: an army may cost less than agreed;
			// the three players of "A couteaux tirés" build 40-point armies.
			name:  "A couteaux tirés: a 35-point army under a 40-point limit",
			army:  Army{PointsLimit: 40, Creatures: []ArmyEntry{{Name: "Archers", Faction: "elves", Rim: "green", Points: 7, Count: 5}}},
			legal: true, total: 35,
		},
		{
			name: "good and evil never together; neutral with anyone",
			army: Army{Creatures: []ArmyEntry{bard, {Name: "Ogre", Faction: "elves", Rim: "blue", Points: 5}, {Name: "Orque", Faction: "elves", Rim: "black", Points: 1}}},
			want: []string{"good and evil"}, total: 11,
		},
		{
			name:  "neutral with evil",
			army:  Army{Creatures: []ArmyEntry{{Name: "Ogre", Faction: "orcs", Rim: "blue", Points: 5}, {Name: "Orque", Faction: "orcs", Rim: "red", Points: 5}}},
			legal: true, total: 10,
		},
		{
			name: "a unique disk at most once",
			army: Army{Creatures: []ArmyEntry{{Name: "Zolo Hexx", Faction: "disciples", Rim: "black", Points: 20, Unique: true},
				{Name: "zolo hexx", Faction: "disciples", Rim: "black", Points: 20, Unique: true}}},
			want: []string{`"Zolo Hexx" is unique: the army holds 2`}, total: 40,
		},
		{
			// "Factions": a 100-point army needs at least 50 points of one
			// faction.
			name:  "Factions: 50 of 100 points in one faction is enough",
			army:  Army{PointsLimit: 100, Creatures: []ArmyEntry{{Name: "Nains", Faction: "dwarves", Rim: "green", Points: 50}, {Name: "Elfes", Faction: "elves", Rim: "green", Points: 30}, {Name: "Chevaliers", Faction: "knights", Rim: "green", Points: 20}}},
			legal: true, total: 100,
		},
		{
			name:  "Factions: 49 of 100 is not",
			army:  Army{PointsLimit: 100, Creatures: []ArmyEntry{{Name: "Nains", Faction: "dwarves", Rim: "green", Points: 49}, {Name: "Elfes", Faction: "elves", Rim: "green", Points: 31}, {Name: "Chevaliers", Faction: "knights", Rim: "green", Points: 20}}},
			want:  []string{"at least half of the 100 creature points (50) must belong to one faction: the largest, dwarves, has 49"},
			total: 100,
		},
		{
			// "Factions", note: Séverine's 150-point army with 30 points of
			// spells leaves 120, of which 60 must be one faction.
			name: "Séverine: 150 points, 30 of spells, 60 of 120 in one faction",
			army: Army{PointsLimit: 150, Spells: []ArmySpell{{Name: "Boule de feu", Count: 2}, {Name: "Zap", Count: 5}},
				Creatures: []ArmyEntry{{Name: "Magicien", Faction: "elves", Rim: "green", Points: 60, Spellcaster: 2}, {Name: "Nains", Faction: "dwarves", Rim: "green", Points: 60}}},
			legal: true, total: 150,
		},
		{
			name: "Séverine with 59 points of elves is short",
			army: Army{PointsLimit: 150, Spells: []ArmySpell{{Name: "Boule de feu", Count: 2}, {Name: "Zap", Count: 5}},
				Creatures: []ArmyEntry{{Name: "Magicien", Faction: "elves", Rim: "green", Points: 59, Spellcaster: 2}, {Name: "Nains", Faction: "dwarves", Rim: "green", Points: 59}, {Name: "Ogre", Rim: "blue", Points: 2}}},
			want:  []string{"(60) must belong to one faction"},
			total: 150,
		},
		{
			// "Le niveau": a level 1 caster cannot cast level 2 spells.
			name:  "Le niveau: Pascal's level 2 spells with only a level 1 caster",
			army:  Army{Spells: []ArmySpell{{Name: "Fireball"}}, Creatures: []ArmyEntry{{Name: "Apprenti", Faction: "knights", Rim: "green", Points: 5, Spellcaster: 1}}},
			want:  []string{`spell "Boule de feu" is level 2 but the army's best spellcaster is level 1`},
			total: 10,
		},
		{
			name:  "every violation is reported",
			army:  Army{PointsLimit: 5, Spells: []ArmySpell{{Name: "Abracadabra"}}, Creatures: []ArmyEntry{{Name: "X", Rim: "pink", Points: 6}}},
			want:  []string{"unknown spell", "unknown rim", "more than the limit", "must belong to one faction"},
			total: 6,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := CheckArmy(tc.army)
			if r.Legal() != tc.legal || r.Total != tc.total {
				t.Errorf("got legal %v total %d (%v), want legal %v total %d", r.Legal(), r.Total, r.Violations, tc.legal, tc.total)
			}
			if len(r.Violations) != len(tc.want) {
				t.Fatalf("violations: got %q, want %d", r.Violations, len(tc.want))
			}
			for k, w := range tc.want {
				if !strings.Contains(r.Violations[k], w) {
					t.Errorf("violation %d: got %q, want it to contain %q", k, r.Violations[k], w)
				}
			}
		})
	}
}

func TestParseArmy(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		ok         bool
	}{
		{"a good army", `{"points_limit": 40, "creatures": [{"name": "Barde elfe", "faction": "elves", "rim": "green", "points": 5}]}`, true},
		{"unknown field", `{"points_limit": 40, "creatures": [], "colour": "red"}`, false},
		{"negative points", `{"creatures": [{"name": "x", "rim": "green", "points": -1}]}`, false},
		{"no name", `{"creatures": [{"rim": "green", "points": 1}]}`, false},
		{"two values", `{} {}`, false},
		{"not JSON", `points: 40`, false},
		{"negative limit", `{"points_limit": -3}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseArmy([]byte(tc.json))
			if (err == nil) != tc.ok {
				t.Errorf("got error %v, want ok %v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrArmyFile) {
				t.Errorf("got %v, want it to wrap ErrArmyFile", err)
			}
		})
	}
}

func FuzzParseArmy(f *testing.F) {
	f.Add([]byte(`{"points_limit": 40, "creatures": [{"name": "Barde elfe", "faction": "elves", "rim": "green", "points": 5, "count": 2, "unique": true}], "spells": [{"name": "Zap"}]}`))
	f.Add([]byte(`{"creatures": [{"name": "x", "rim": "pink", "points": 1e3}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseArmy(data)
		if err != nil {
			return
		}
		r := CheckArmy(a)
		if r.Total != r.SpellPoints+r.CreaturePoints || r.MainFactionPoints > r.CreaturePoints && r.CreaturePoints >= 0 {
			t.Errorf("inconsistent report %+v", r)
		}
	})
}

func TestSpellTable(t *testing.T) {
	all := Spells()
	if len(all) != 31 {
		t.Fatalf("spells: got %d, want the book's 31", len(all))
	}
	levels := map[int]int{}
	for _, s := range all {
		levels[s.Level]++
		if s.Cost <= 0 || s.Effect == "" {
			t.Errorf("%s: cost %d effect %q", s.Name, s.Cost, s.Effect)
		}
	}
	if levels[1] != 10 || levels[2] != 11 || levels[3] != 10 {
		t.Errorf("spells per level: got %v, want 10, 11, 10", levels)
	}
	for _, tc := range []struct {
		name  string
		level int
		cost  int
		rng   float64
	}{{"Mur magique", 1, 2, 15}, {"Zap", 1, 4, 30}, {"boule-de-feu", 2, 5, 0}, {"Onde de choc", 2, 7, 15}, {"Choc electrique", 3, 10, 15}, {"Paralysis", 3, 10, 15}, {"Résurrection", 3, 10, 0}} {
		s, ok := LookupSpell(tc.name)
		if !ok || s.Level != tc.level || s.Cost != tc.cost || float64(s.Range) != tc.rng {
			t.Errorf("%s: got %+v, want level %d cost %d range %v", tc.name, s, tc.level, tc.cost, tc.rng)
		}
	}
	// "Le niveau": level 1 casts level 1; level 2 casts 1 and 2; level 3 all.
	fire, _ := LookupSpell("Boule de feu")
	if CanCast(1, fire) || !CanCast(2, fire) || !CanCast(3, fire) {
		t.Errorf("casting a level 2 spell: got levels 1/2/3 = %v/%v/%v, want false/true/true", CanCast(1, fire), CanCast(2, fire), CanCast(3, fire))
	}
}
