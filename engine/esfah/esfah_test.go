package esfah

import (
	"reflect"
	"strings"
	"testing"
)

const source = "../shared/seeds/002_2b784673a7311b3b.txt"

// TestBattleSizeTable reproduces every cell of the table of section 1,
// "Decide Battle Size" (source).
func TestBattleSizeTable(t *testing.T) {
	want := []BattleSize{
		{120, 60, 60, 3, 20, 1, 8, 5},
		{180, 90, 90, 4, 30, 1, 10, 6},
		{240, 120, 120, 5, 40, 2, 12, 7},
		{300, 150, 150, 6, 50, 3, 14, 8},
		{360, 180, 180, 7, 60, 3, 16, 9},
	}
	if got := Sizes(); !reflect.DeepEqual(got, want) {
		t.Errorf("Sizes() (%s, battle size table):\ngot  %+v\nwant %+v", source, got, want)
	}
}

func TestSizeForRejectsSizesOutsideTheTable(t *testing.T) {
	for _, h := range []Health{0, 60, 100, 150, 420, -120} {
		if _, err := SizeFor(h); err == nil {
			t.Errorf("SizeFor(%d): got no error, want one", h)
		}
	}
}

func TestVictoryIsMoreThanHalfTheTerrain(t *testing.T) {
	cases := []struct {
		captured, total int
		want            bool
	}{{4, 8, false}, {5, 8, true}, {5, 10, false}, {6, 10, true}, {9, 16, true}, {8, 16, false}}
	for _, c := range cases {
		if got := Won(c.captured, c.total); got != c.want {
			t.Errorf("Won(%d of %d) = %v, want %v", c.captured, c.total, got, c.want)
		}
	}
}

// chrisArmy is the army of the text's recruiting examples (section 7,
// "Recruiting Cycles"): 12 health of Vagha, 17 of Mohrel, 11 of
// Firewalkers and 4 of red magic items.
func chrisArmy(terrain string) Army {
	return Army{Terrain: terrain, ItemsHealth: 4, Units: []Unit{
		{"Vagha", 12}, {"Mohrel", 17}, {"Firewalkers", 11},
	}}
}

// TestRecruitingExamples reproduces the three figures of the text's
// examples (source, section 7): 3/5/3 away from native terrain, 6/10/3 in
// the highlands, 3/5/6 at a Coastland.
func TestRecruitingExamples(t *testing.T) {
	cases := []struct {
		name, terrain string
		want          map[Race]Health
	}{
		{"Chris's army, no native terrain (flatland): 3 Vagha, 5 Mohrel, 3 Firewalkers", "flatland", map[Race]Health{"vagha": 3, "mohrel": 5, "firewalker": 3}},
		{"Chris's army stationed in the highlands: 6, 10, 3", "highlands", map[Race]Health{"vagha": 6, "mohrel": 10, "firewalker": 3}},
		{"the same army at a Coastland: 3, 5, 6", "Coastland", map[Race]Health{"vagha": 3, "mohrel": 5, "firewalker": 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Points(chrisArmy(c.terrain))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestConversionExamples: "He combines his Vagha and Mohrel recruiting
// points, halves them and recruits 4 health worth of Feral ... He may add
// 2 health points of blue or red magic items" (source, section 7).
func TestConversionExamples(t *testing.T) {
	if got := HalfRate(3 + 5); got != 4 {
		t.Errorf("Feral from 3 Vagha + 5 Mohrel points: got %d, want 4", got)
	}
	if got := HalfRate(3); got != 2 {
		t.Errorf("magic items from 3 Firewalker points: got %d, want 2", got)
	}
	points, err := Points(chrisArmy("flatland"))
	if err != nil {
		t.Fatal(err)
	}
	spend := Spend{Converted: []Conversion{
		{From: map[string]Health{"vagha": 3, "mohrel": 5}, Race: "feral", Health: 4},
		{From: map[string]Health{"firewalker": 3}, Items: true, Health: 2},
	}}
	if err := CheckSpend(points, spend); err != nil {
		t.Errorf("the text's spend: got %v, want no error", err)
	}
	if got := spend.Total(); got != 6 {
		t.Errorf("total recruited: got %d, want 6", got)
	}
}

func TestCheckSpendRejectsOverspending(t *testing.T) {
	points := map[Race]Health{"vagha": 3, "mohrel": 5, "firewalker": 3}
	bad := []struct {
		name  string
		spend Spend
	}{
		{"more Vagha than points", Spend{Own: map[string]Health{"vagha": 4}}},
		{"Feral above half rate", Spend{Converted: []Conversion{{From: map[string]Health{"vagha": 3, "mohrel": 5}, Race: "feral", Health: 5}}}},
		{"points used twice", Spend{Own: map[string]Health{"mohrel": 5}, Converted: []Conversion{{From: map[string]Health{"mohrel": 1}, Items: true, Health: 1}}}},
		{"a race not in the army", Spend{Own: map[string]Health{"trogs": 1}}},
		{"conversion to both a race and items", Spend{Converted: []Conversion{{From: map[string]Health{"vagha": 2}, Race: "feral", Items: true, Health: 1}}}},
		{"negative recruits", Spend{Own: map[string]Health{"vagha": -1}}},
	}
	for _, c := range bad {
		if err := CheckSpend(points, c.spend); err == nil {
			t.Errorf("%s: got no error, want one", c.name)
		}
	}
}

func TestDragonsDragonkinAndItemsDoNotCount(t *testing.T) {
	a := Army{Terrain: "highland", ItemsHealth: 8, Dragons: 2, DragonkinHealth: 10,
		Units: []Unit{{"vagha", 4}, {"dragonkin", 10}, {"dragon", 20}}}
	got, err := Points(a)
	if err != nil {
		t.Fatal(err)
	}
	if want := (map[Race]Health{"vagha": 2}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestBonusRecruitsAreNotDoubled(t *testing.T) {
	a := Army{Terrain: "highland", Units: []Unit{{"vagha", 8}}, Bonus: map[string]Health{"Vagha": 3}}
	got, err := Points(a)
	if err != nil {
		t.Fatal(err)
	}
	if got["vagha"] != 2*2+3 {
		t.Errorf("got %d Vagha points, want 7 (2 doubled, plus 3 bonus)", got["vagha"])
	}
}

// TestNativeTerrainTable checks every row of the native terrain table
// (source, section 7).
func TestNativeTerrainTable(t *testing.T) {
	rows := map[string]Terrain{
		"Amazons": Flatland, "Feral": Flatland, "Frostwings": Flatland,
		"Firewalker": Coastland, "Selumari": Coastland,
		"Mohrel": Highland, "Scalders": Highland, "Vagha": Highland,
		"Swamp Stalkers": Swampland, "Treefolk": Swampland, "Trogs": Swampland,
		"Undead": "", "Ether Hybrids": "", "Light Hybrids": "", "Shadow Hybrids": "",
	}
	n := DefaultNatives()
	for race, want := range rows {
		got, err := n.Native(NormalRace(race))
		if err != nil || got != want {
			t.Errorf("native terrain of %s: got %q (%v), want %q", race, got, err, want)
		}
	}
	for _, terr := range Terrains {
		p, err := Points(Army{Terrain: string(terr), Units: []Unit{{"undead", 8}}})
		if err != nil || p["undead"] != 2 {
			t.Errorf("undead at %s: got %v (%v), want 2 points, never doubled", terr, p, err)
		}
	}
}

func TestUnknownRaceAndTerrainAreErrors(t *testing.T) {
	_, err := Points(Army{Terrain: "highland", Units: []Unit{{"dwarves", 8}}})
	if err == nil || !strings.Contains(err.Error(), "dwarves") {
		t.Errorf("unknown race: got %v, want an error naming dwarves", err)
	}
	p, err := Points(Army{Terrain: "highland", Units: []Unit{{"Dwarves", 8}}, Natives: map[string]string{"dwarves": "highland"}})
	if err != nil || p["dwarves"] != 4 {
		t.Errorf("dwarves with a native terrain given: got %v (%v), want 4", p, err)
	}
	if _, err := Points(Army{Terrain: "desert", Units: []Unit{{"vagha", 8}}}); err == nil {
		t.Error("unknown terrain desert: got no error")
	}
}

func TestRecruitingEveryFifthTurn(t *testing.T) {
	for completed, want := range map[int]bool{0: false, 4: false, 5: true, 6: false, 10: true, 15: true} {
		if got := RecruitingDue(completed); got != want {
			t.Errorf("RecruitingDue(%d) = %v, want %v", completed, got, want)
		}
	}
	if got := NextRecruiting(6); got != 10 {
		t.Errorf("NextRecruiting(6) = %d, want 10", got)
	}
}

func TestOrderOfPlay(t *testing.T) {
	order, ties := OrderOfPlay(map[string]int{"ann": 3, "bob": 5, "cy": 3, "dee": 1})
	if want := []string{"bob", "ann", "cy", "dee"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order: got %v, want %v", order, want)
	}
	if want := [][]string{{"ann", "cy"}}; !reflect.DeepEqual(ties, want) {
		t.Errorf("ties: got %v, want %v", ties, want)
	}
}

func TestCheckArmies(t *testing.T) {
	size, _ := SizeFor(120)
	if err := CheckArmies(size, []Health{30, 20, 10}, []int{5, 3, 2}); err != nil {
		t.Errorf("good armies: %v", err)
	}
	bad := [][]Health{{31, 20, 9}, {30, 30, 10}, {30, 20}}
	for _, h := range bad {
		if err := CheckArmies(size, h, []int{1, 1, 1}); err == nil {
			t.Errorf("armies %v: got no error", h)
		}
	}
	if err := CheckArmies(size, []Health{30, 20, 0}, []int{5, 3, 0}); err == nil {
		t.Error("an empty army: got no error")
	}
}

func TestSpells(t *testing.T) {
	if len(Spells) != 20 {
		t.Errorf("the text has 1 spell revision and 19 new spells: got %d", len(Spells))
	}
	cases := []struct {
		spell string
		race  Race
		magic map[Color]int
		ok    bool
	}{
		{"Summon Dragon", "vagha", map[Color]int{Red: 12}, true},
		{"Summon Dragon", "vagha", map[Color]int{Red: 6, Gold: 6}, false},
		{"Barrier", "vagha", map[Color]int{Gold: 5}, false},
		{"Barrier", "amazon", map[Color]int{Gold: 5}, true},
		{"Quake", "trog", map[Color]int{Gold: 14}, false},
		{"Monster Summoning", "trog", map[Color]int{Black: 5, Gold: 5}, true},
		{"Monster Summoning", "trog", map[Color]int{Black: 5, Red: 5}, false},
		{"Monster Summoning", "amazon", map[Color]int{Black: 5, Red: 5}, false},
		{"Monster Summoning", "amazon", map[Color]int{Green: 5, Red: 5}, true},
		{"Monster Summoning", "undead", map[Color]int{Black: 5, Blue: 5}, true},
		{"To the Death", "vagha", map[Color]int{Red: 20, Blue: 30}, true},
		{"Deattune", "amazon", map[Color]int{Red: 10, Blue: 9}, false},
	}
	for _, c := range cases {
		s, err := LookupSpell(c.spell)
		if err != nil {
			t.Fatal(err)
		}
		err = CanCast(s, c.race, c.magic)
		if (err == nil) != c.ok {
			t.Errorf("%s by %s with %v: got %v, want ok=%v", c.spell, c.race, c.magic, err, c.ok)
		}
	}
}
