package diskwars

import (
	"slices"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

func terrain(id, kind, owner string, x, y, r float64) models.Disk {
	return models.Disk{ID: id, Kind: models.KindTerrain, Terrain: kind, Owner: owner, X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r)}
}

// scenarioTable: the central terrain at (60, 45) and the two homelands 60
// cm away; extra creatures are added by the tests.
func scenarioTable(disks ...models.Disk) *engine.Table {
	l := layoutOf(append([]models.Disk{
		terrain("centre", "hill", "", 60, 45, 8),
		terrain("home-a", "homeland", "a", 60, -23, 8),
		terrain("home-b", "homeland", "b", 60, 113, 8),
	}, disks...)...)
	l.Players = []string{"a", "b"}
	return engine.NewTable(l)
}

func TestController(t *testing.T) {
	// "Premier contact": absolute control, one of his disks touches the
	// terrain and no enemy disk does.
	a := fighter("a1", "a", 60, 38, 2.5, 1, 2, 2, 2)
	a2 := fighter("a2", "a", 66, 45, 2.5, 1, 2, 2, 2)
	b := fighter("b1", "b", 54, 45, 2.5, 1, 2, 2, 2)
	away := fighter("b2", "b", 90, 45, 2.5, 1, 2, 2, 2)
	for _, tc := range []struct {
		name  string
		disks []models.Disk
		want  string
	}{
		{"nobody touches it", []models.Disk{away}, ""},
		{"a alone", []models.Disk{a, a2, away}, "a"},
		{"contested", []models.Disk{a, b}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := scenarioTable(tc.disks...)
			ci, err := CentralTerrain(tb)
			if err != nil || tb.ID(ci) != "centre" {
				t.Fatalf("central: got %v %v, want centre", ci, err)
			}
			if got := Controller(tb, ci); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestScenarioVictories(t *testing.T) {
	hold := fighter("a1", "a", 60, 38, 2.5, 1, 2, 2, 2)
	raid := []models.Disk{fighter("r1", "a", 60, 108, 2.5, 1, 5, 1, 1), fighter("r2", "a", 63, 110, 2.5, 2, 3, 1, 1)}
	for _, tc := range []struct {
		name     string
		scenario string
		turns    [][]models.Disk
		tally    Tally
		winner   string
		reason   string
	}{
		{"Premier contact: control two turns in a row wins", PremierContact, [][]models.Disk{{hold}, {hold}}, nil, "a", "two consecutive turns"},
		{"Premier contact: one turn of control is not enough", PremierContact, [][]models.Disk{{}, {hold}}, nil, "", "one more turn"},
		{"Premier contact: combined attack 8 on the enemy base wins", PremierContact, [][]models.Disk{raid}, nil, "a", "combined attack of 8"},
		{"Premier contact: attack 5 on the base is not enough", PremierContact, [][]models.Disk{raid[:1]}, nil, "", ""},
		{"La colline du destin: control and 25 points", CollineDuDestin, [][]models.Disk{{hold}}, Tally{"a": 25}, "a", "has destroyed 25"},
		{"La colline du destin: 24 points is not enough", CollineDuDestin, [][]models.Disk{{hold}}, Tally{"a": 24}, "", "only 24"},
		{"La colline du destin: points without control", CollineDuDestin, [][]models.Disk{{}}, Tally{"a": 40}, "", "nobody"},
		// "A couteaux tirés": 40 to 15 or 25 to 0 wins.
		{"A couteaux tirés: 40 to 15", ACouteauxTires, [][]models.Disk{{}}, Tally{"a": 40, "b": 15}, "a", "leads b by 25"},
		{"A couteaux tirés: 25 to 0", ACouteauxTires, [][]models.Disk{{}}, Tally{"b": 25}, "b", "leads a by 25"},
		{"A couteaux tirés: 2589 to 2546, a lead of 43", ACouteauxTires, [][]models.Disk{{}}, Tally{"a": 2589, "b": 2546}, "a", "by 43"},
		{"A couteaux tirés: 15 to 0 plus 10 for control", ACouteauxTires, [][]models.Disk{{hold}}, Tally{"a": 15}, "a", "25 to 0"},
		{"A couteaux tirés: 14 to 0 plus 10 is short", ACouteauxTires, [][]models.Disk{{hold}}, Tally{"a": 14}, "", "best lead is 24"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tables []*engine.Table
			for _, ds := range tc.turns {
				tables = append(tables, scenarioTable(ds...))
			}
			v, err := CheckScenario(tc.scenario, tables, tc.tally, 0)
			if err != nil {
				t.Fatal(err)
			}
			if v.Winner != tc.winner || !strings.Contains(strings.Join(v.Reasons, "; "), tc.reason) {
				t.Errorf("got winner %q (%v), want %q with %q", v.Winner, v.Reasons, tc.winner, tc.reason)
			}
		})
	}
	if _, err := CheckScenario("capture the flag", []*engine.Table{scenarioTable()}, nil, 0); err == nil {
		t.Errorf("unknown scenario: got no error")
	}
}

func TestDestroyedPoints(t *testing.T) {
	// "Combat multiple", note: disks of two armies destroy one disk; the
	// attacker with the greater attack wins the points.
	b := fighter("B", "b", 0, 0, 2.5, 0, 1, 0, 4)
	b.Stats["points"] = 12
	a := fighter("A", "a", -3, 0, 2.5, 1, 2, 1, 4)
	c := fighter("C", "c", 3, 0, 2.5, 1, 3, 1, 2)
	l := layoutOf(b, a, c)
	tb := engine.NewTable(l)
	r := resolve(t, l)
	got := DestroyedPoints(tb, r, Tally{"c": 1})
	if got["c"] != 13 || got["a"] != 0 {
		t.Errorf("got %v, want c credited 12 more", got)
	}
	// Equal attackers: the points are lost.
	c.Stats = models.Stats{"attack": 2, "defense": 1, "toughness": 4}
	l = layoutOf(b, a, c)
	r = resolve(t, l)
	if got := DestroyedPoints(engine.NewTable(l), r, nil); len(got) != 0 {
		t.Errorf("tie: got %v, want nobody credited", got)
	}
	// "Capturé": "Si un Disk capturé est tué, personne ne gagne de points
	// de victoire" (Autres règles importantes).
	c.Stats = models.Stats{"attack": 3, "defense": 1, "toughness": 2}
	l = layoutOf(withExtra(b, "captured", true), a, c)
	r = resolve(t, l)
	if got := DestroyedPoints(engine.NewTable(l), r, nil); !slices.Contains(r.Casualties, "B") || len(got) != 0 {
		t.Errorf("captured: got %v (casualties %v), want B destroyed and nobody credited", got, r.Casualties)
	}
}
