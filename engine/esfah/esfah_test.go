package esfah

import (
	"math"
	"reflect"
	"slices"
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
// Firewalkers and 4 of red magic items, listed with the units so that
// "The magic items are ignored" is checked, not assumed.
func chrisArmy(terrain string) Army {
	return Army{Terrain: terrain, Units: []Unit{
		{"Vagha", 12}, {"Mohrel", 17}, {"Firewalkers", 11}, {"red magic items", 4},
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

// TestDragonsDragonkinAndItemsDoNotCount: "Health in an army due to
// dragons, dragonkin and magic items do not count toward any recruiting
// total" (source, section 7), whatever their spelling, and even when the
// campaign gives them a native terrain.
func TestDragonsDragonkinAndItemsDoNotCount(t *testing.T) {
	cases := []struct {
		name    string
		units   []Unit
		natives map[string]string
	}{
		{"a dragon and dragonkin", []Unit{{"dragon", 20}, {"dragonkin", 10}}, nil},
		{"plurals and capitals", []Unit{{"Dragons", 20}, {"DragonKin", 10}, {"dragon-kins", 4}}, nil},
		{"a coloured dragon", []Unit{{"Red Dragon", 20}}, nil},
		{"dragons given a native terrain", []Unit{{"Dragons", 20}}, map[string]string{"Dragons": "highland"}},
		{"magic items and artifacts", []Unit{{"red magic items", 4}, {"Artifact", 3}, {"items", 2}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := Army{Terrain: "highland", ItemsHealth: 8, Dragons: 2, DragonkinHealth: 10,
				Units: append([]Unit{{"vagha", 4}}, c.units...), Natives: c.natives}
			got, err := Points(a)
			if err != nil {
				t.Fatal(err)
			}
			if want := (map[Race]Health{"vagha": 2}); !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestArmyRefusesNegativeCounts(t *testing.T) {
	for _, a := range []Army{
		{Terrain: "highland", Units: []Unit{{"vagha", 4}}, ItemsHealth: -4},
		{Terrain: "highland", Units: []Unit{{"vagha", 4}}, Dragons: -1},
		{Terrain: "highland", Units: []Unit{{"vagha", 4}}, DragonkinHealth: -2},
	} {
		if _, err := Points(a); err == nil || !strings.Contains(err.Error(), "negative") {
			t.Errorf("%+v: got %v, want an error about a negative count", a, err)
		}
	}
}

// TestHalfRateCountsAllConvertedPoints: points used for another race or
// magic items buy "at one-half the normal recruiting value", and the
// text's example turns 3 + 5 points into 4 Feral and 3 points into 2
// magic items (source, section 7): 11 points, 6 health. The half rate is
// taken over all the points converted, so splitting a conversion into
// small ones cannot round up more often.
func TestHalfRateCountsAllConvertedPoints(t *testing.T) {
	points := map[Race]Health{"vagha": 3, "mohrel": 5, "firewalker": 3}
	conv := func(from string, p Health, race string, h Health) Conversion {
		return Conversion{From: map[string]Health{from: p}, Race: race, Items: race == "", Health: h}
	}
	repeat := func(n int, c Conversion) []Conversion {
		out := make([]Conversion, n)
		for i := range out {
			out[i] = c
		}
		return out
	}
	cases := []struct {
		name  string
		spend []Conversion
		ok    bool
	}{
		{"the text's spend: 4 Feral from 3 + 5 points, 2 items from 3", []Conversion{
			{From: map[string]Health{"vagha": 3, "mohrel": 5}, Race: "feral", Health: 4}, conv("firewalker", 3, "", 2)}, true},
		{"4 Feral from 3 Vagha (2) and 5 Mohrel (2) apart", []Conversion{conv("vagha", 3, "feral", 2), conv("mohrel", 5, "feral", 2)}, true},
		{"6 health from eleven 1-point conversions, five buying nothing", append(append(repeat(3, conv("vagha", 1, "feral", 1)), repeat(5, conv("mohrel", 1, "feral", 0))...), repeat(3, conv("firewalker", 1, "", 1))...), true},
		{"7 health from 11 points: 4 Feral from 3 + 5, 3 items from 1 + 1 + 1", append([]Conversion{
			{From: map[string]Health{"vagha": 3, "mohrel": 5}, Race: "feral", Health: 4}}, repeat(3, conv("firewalker", 1, "", 1))...), false},
		{"3 items from three 1-point Firewalker conversions", repeat(3, conv("firewalker", 1, "", 1)), false},
		{"8 Feral from eight 1-point conversions", append(repeat(3, conv("vagha", 1, "feral", 1)), repeat(5, conv("mohrel", 1, "feral", 1))...), false},
		{"5 Feral from 3 Vagha (2) and 5 Mohrel (3) apart", []Conversion{conv("vagha", 3, "feral", 2), conv("mohrel", 5, "feral", 3)}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckSpend(points, Spend{Converted: c.spend})
			if (err == nil) != c.ok {
				t.Errorf("got %v, want ok=%v", err, c.ok)
			}
		})
	}
}

// TestNativesRefuseTwoTerrainsForOneRace: two spellings of one race are
// one race; giving them two terrains is refused rather than settled by
// the order of a map.
func TestNativesRefuseTwoTerrainsForOneRace(t *testing.T) {
	if _, err := DefaultNatives().With(map[string]string{"Dwarves": "highland", "dwarves": "flatland"}); err == nil || !strings.Contains(err.Error(), "dwarves") {
		t.Errorf("Dwarves highland and dwarves flatland: got %v, want an error naming dwarves", err)
	}
	n, err := DefaultNatives().With(map[string]string{"Dwarves": "highland", "dwarves": "Highlands"})
	if err != nil || n["dwarves"] != Highland {
		t.Errorf("the same terrain in two spellings: got %v (%v), want dwarves highland", n["dwarves"], err)
	}
}

// TestNativesCannotChangeTheTextsTable: a campaign may add races the
// native terrain table does not list, not change the table (source,
// section 7).
func TestNativesCannotChangeTheTextsTable(t *testing.T) {
	cases := []struct {
		natives map[string]string
		ok      bool
		want    []string // words of the error
	}{
		{map[string]string{"vagha": "coastland"}, false, []string{"vagha", "highland"}},
		{map[string]string{"Mohrel": "none"}, false, []string{"mohrel", "highland"}},
		{map[string]string{"Undead": "flatland"}, false, []string{"undead", "none"}},
		{map[string]string{"Vagha": "Highlands", "undead": "none"}, true, nil},
		{map[string]string{"Dwarves": "highland"}, true, nil},
	}
	for _, c := range cases {
		_, err := DefaultNatives().With(c.natives)
		if (err == nil) != c.ok {
			t.Errorf("%v: got %v, want ok=%v", c.natives, err, c.ok)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: got %q, want it to name %q", c.natives, err, w)
			}
		}
	}
	if _, err := Points(Army{Terrain: "coastland", Units: []Unit{{"vagha", 8}}, Natives: map[string]string{"vagha": "coastland"}}); err == nil {
		t.Error("an army making Vagha native to the coastland: got no error")
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
	// {-1, 30, 30}: "no more than one-half the initial health total may
	// be in a single army" (source, section 2) holds only with a negative
	// army making room for the others.
	bad := [][]Health{{31, 20, 9}, {30, 30, 10}, {30, 20}, {-1, 30, 30}}
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

// TestSeatingOfTotalsFarApart: "sit around the battlefield in order from
// most maneuver results to least" (source, section 3), whatever totals
// are given, even a negative one typed by mistake.
func TestSeatingOfTotalsFarApart(t *testing.T) {
	cases := []struct {
		name      string
		maneuvers map[string]int
		want      []string
	}{
		{"the largest total and a negative one", map[string]int{"ann": -2, "bob": math.MaxInt}, []string{"bob", "ann"}},
		{"the smallest total and a positive one", map[string]int{"ann": math.MinInt, "bob": 1, "cy": 0}, []string{"bob", "cy", "ann"}},
		{"ordinary totals", map[string]int{"ann": 3, "bob": 7, "cy": 0}, []string{"bob", "ann", "cy"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ties := OrderOfPlay(c.maneuvers)
			if !slices.Equal(got, c.want) || len(ties) != 0 {
				t.Errorf("got order %v, ties %v; want %v", got, ties, c.want)
			}
		})
	}
}

// TestRoundingUpAtTheLargestHealth: "All fractions are rounded up" (source,
// section 7), for any health, without wrapping round to a negative number.
func TestRoundingUpAtTheLargestHealth(t *testing.T) {
	cases := []struct {
		name     string
		f        func(Health) Health
		in, want Health
	}{
		{"a fourth of 17", BasePoints, 17, 5},
		{"a fourth of the largest health", BasePoints, math.MaxInt, math.MaxInt/4 + 1},
		{"half of 3", HalfRate, 3, 2},
		{"half of the largest health", HalfRate, math.MaxInt, math.MaxInt/2 + 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.f(c.in); got != c.want {
				t.Errorf("got %d, want %d", got, c.want)
			}
		})
	}
}
