package greatwar

import (
	"reflect"
	"testing"

	"tableref/models"
)

// TestIncome reproduces the income rules of the text (source, the
// paragraph "An essential part of the game will be taken by the terrain
// disks and by the homelands" and the homeland abilities) on tables built
// for each rule.
func TestIncome(t *testing.T) {
	base := map[string]int{"kate": 1, "eli": 1, "oscar": 2, "ursula": 0}
	plus := func(m map[string]int) map[string]int {
		out := map[string]int{}
		for k, v := range base {
			out[k] = v + m[k]
		}
		return out
	}
	cases := []struct {
		name      string
		disks     []models.Disk
		conquered map[string]Conquest
		want      map[string]int
	}{
		{"each homeland yields 1 gold, the Orcs' 2, the Uthuk's none", nil, nil, base},
		{"a Peasant on a forest yields 1 gold", []models.Disk{unit("p1", "Peasants", "kate", 50, 60)}, nil, plus(map[string]int{"kate": 1})},
		{"a standard army unit harvests (Men-At-Arms on the lake, spelled loosely)", []models.Disk{unit("m1", "men-at-arms", "kate", 130, 60)}, nil, plus(map[string]int{"kate": 1})},
		{"a unit that is no harvester yields nothing", []models.Disk{unit("a1", "Archers", "kate", 50, 60)}, nil, base},
		{"Elven harvesters yield 2 gold in a wood", []models.Disk{unit("p1", "Deepwood Warriors", "eli", 50, 60)}, nil, plus(map[string]int{"eli": 2})},
		{"allies harvesting one terrain each collect", []models.Disk{unit("p1", "Peasants", "kate", 49, 60), unit("p2", "Peasants", "eli", 51, 60)}, nil, plus(map[string]int{"kate": 1, "eli": 2})},
		{"several harvesters of one player on one terrain yield 1 gold", []models.Disk{unit("p1", "Swordsmen", "kate", 48, 60), unit("p2", "Peasants", "kate", 52, 60)}, nil, plus(map[string]int{"kate": 1})},
		{"as many enemy disks as harvesters block the income", []models.Disk{unit("p1", "Peasants", "kate", 48, 60), unit("g1", "Orc Warband", "oscar", 52, 60)}, nil, base},
		{"more harvesters than enemy disks keep it", []models.Disk{unit("p1", "Peasants", "kate", 48, 60), unit("p2", "Swordsmen", "kate", 50, 62), unit("g1", "Orc Warband", "oscar", 52, 60)}, nil, plus(map[string]int{"kate": 1})},
		{"a harvester flipped half onto the lake fishes", []models.Disk{unit("g1", "Grugs", "oscar", 134.5, 60)}, nil, plus(map[string]int{"oscar": 1})},
		{"a harvester beside the lake does not", []models.Disk{unit("g1", "Grugs", "oscar", 136, 60)}, nil, base},
		{"a conquered homeland yields nothing and its player collects nothing", []models.Disk{unit("p1", "Peasants", "kate", 50, 60)},
			map[string]Conquest{"kate": {By: "oscar", ByFaction: Orcs}}, map[string]int{"kate": 0, "eli": 1, "oscar": 2, "ursula": 0}},
		{"the Uthuk plunder a homeland they conquered for 3 gold", []models.Disk{unit("w1", "Warriors of Yllan", "ursula", 20, 20)},
			map[string]Conquest{"kate": {By: "ursula", ByFaction: Uthuk}}, map[string]int{"kate": 0, "eli": 1, "oscar": 2, "ursula": 3}},
		{"the Uthuk may not plunder a homeland the Orcs conquered", []models.Disk{unit("w1", "Warriors of Yllan", "ursula", 20, 20)},
			map[string]Conquest{"kate": {By: "oscar", ByFaction: Orcs}}, map[string]int{"kate": 0, "eli": 1, "oscar": 2, "ursula": 0}},
		{"the Elves' homeland counts as a wood", []models.Disk{unit("g1", "Grugs", "oscar", 20, 100)}, nil, plus(map[string]int{"oscar": 1})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ComputeIncome(with(fourFactions(), c.disks...), c.conquered, IncomeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Income, c.want) {
				t.Errorf("got %v, want %v (sources %+v, blocked %+v)", got.Income, c.want, got.Sources, got.Blocked)
			}
			sum := map[string]int{}
			for _, s := range got.Sources {
				sum[s.Player] += s.Gold
			}
			for p, g := range got.Income {
				if sum[p] != g {
					t.Errorf("sources of %s add up to %d, income says %d", p, sum[p], g)
				}
			}
		})
	}
}

// TestIncomeDwarvesAndDragons: the Dwarves "gain double income (i.e. 2 Gold
// for harvesting) a mountain"; "The homeland of the Dragons counts as a
// normal mountain terrain" (source, homeland abilities).
func TestIncomeDwarvesAndDragons(t *testing.T) {
	l := models.Layout{Version: 1, Disks: []models.Disk{
		terrain("hd", Homeland, "dora", "dwarves", 20, 20),
		terrain("hg", Homeland, "drake", "dragons", 160, 20),
		terrain("m", Mountain, "", "", 90, 20),
		unit("r1", "Regiment of the Anvil", "dora", 90, 20),
		unit("r2", "Regiment of the Anvil", "dora", 160, 20),
		unit("r3", "Regiment of the Anvil", "dora", 162, 22),
		unit("d1", "Dragon Warriors", "drake", 158, 18),
	}}
	got, err := ComputeIncome(with(l), nil, IncomeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"dora": 1 + 2 + 2, "drake": 1}
	if !reflect.DeepEqual(got.Income, want) {
		t.Errorf("got %v, want %v (%+v)", got.Income, want, got.Sources)
	}
}

func TestIncomeExtraHarvesters(t *testing.T) {
	tb := with(fourFactions(), unit("x", "Militia", "kate", 50, 60))
	got, _ := ComputeIncome(tb, nil, IncomeOptions{Harvesters: []string{"militia"}})
	if got.Income["kate"] != 2 {
		t.Errorf("a declared harvester: got %d gold for kate, want 2", got.Income["kate"])
	}
	kw := unit("y", "Yeomen", "kate", 50, 60)
	kw.Keywords = []string{"harvester"}
	got, _ = ComputeIncome(with(fourFactions(), kw), nil, IncomeOptions{})
	if got.Income["kate"] != 2 {
		t.Errorf("keyword harvester: got %d gold for kate, want 2", got.Income["kate"])
	}
}

func TestIncomeRejectsUnknownFaction(t *testing.T) {
	l := fourFactions()
	l.Disks[0].Faction = "gnomes"
	if _, err := ComputeIncome(with(l), nil, IncomeOptions{}); err == nil {
		t.Error("unknown faction gnomes: got no error")
	}
}
