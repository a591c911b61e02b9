package diskwars

import (
	"errors"
	"testing"
)

// TestArmyFactionSpelling: "Factions": "Au moins 50% de vos PA doivent
// être attribués à cette faction" (a 100-point army needs 50 points of one
// faction). A faction written "Elves" on one disk and "elves" on another
// is one faction, as unique names are compared without case or accents.
func TestArmyFactionSpelling(t *testing.T) {
	r := CheckArmy(Army{PointsLimit: 100, Creatures: []ArmyEntry{
		{Name: "Archers", Faction: "Elves", Rim: "green", Points: 30},
		{Name: "Bardes", Faction: " elves", Rim: "green", Points: 30},
		{Name: "Nains", Faction: "dwarves", Rim: "green", Points: 40},
	}})
	if !r.Legal() || r.MainFaction != "Elves" || r.MainFactionPoints != 60 {
		t.Errorf("got main faction %q with %d (%v), want Elves with 60, legal", r.MainFaction, r.MainFactionPoints, r.Violations)
	}
}

// TestParseArmyBounds: numbers so large that the total would overflow are
// refused with an error naming the entry, not summed into nonsense.
func TestParseArmyBounds(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		ok         bool
	}{
		{"a 250-point army, énorme", `{"points_limit": 250, "creatures": [{"name": "x", "rim": "green", "points": 25, "count": 10}]}`, true},
		{"points beyond any army", `{"creatures": [{"name": "x", "rim": "green", "points": 5000000000000000000, "count": 5}]}`, false},
		{"count beyond any army", `{"creatures": [{"name": "x", "rim": "green", "points": 5, "count": 4000000000000000000}]}`, false},
		{"spell points beyond any army", `{"spells": [{"name": "Zap", "points": 5000000000000000000, "count": 2}]}`, false},
		{"spell count beyond any army", `{"spells": [{"name": "Zap", "count": 4000000000000000000}]}`, false},
		{"limit beyond any army", `{"points_limit": 5000000000000000000}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseArmy([]byte(tc.json))
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrArmyFile)) {
				t.Errorf("got error %v, want ok %v (an error wrapping ErrArmyFile)", err, tc.ok)
			}
		})
	}
}
