package greatwar

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"tableref/models"
)

// TestAllowance: "The number of disks held by that player is divided by 3,
// factions rounded down. Each player who has at maximum twice this amount
// ... two disks ... at maximum once this amount ... one disk" (source).
func TestAllowance(t *testing.T) {
	got := Allowance(map[string]int{"most": 14, "eight": 8, "nine": 9, "four": 4, "five": 5, "none": 0})
	want := map[string]int{"most": 3, "eight": 2, "nine": 3, "four": 1, "five": 2, "none": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("14 units most (14/3 = 4): got %v, want %v", got, want)
	}
	if got := Allowance(map[string]int{"a": 2, "b": 1}); got["a"] != 3 || got["b"] != 3 {
		t.Errorf("fewer than 3 units: got %v, want 3 for all (2/3 rounds down to 0)", got)
	}
}

func TestPlayingOrderIsAPermutationFromTheSeed(t *testing.T) {
	players := []string{"a", "b", "c", "d"}
	o1 := PlayingOrder(players, rand.New(rand.NewPCG(1, 2)))
	o2 := PlayingOrder(players, rand.New(rand.NewPCG(1, 2)))
	if !slices.Equal(o1, o2) {
		t.Errorf("same seed: got %v and %v", o1, o2)
	}
	if s := slices.Sorted(slices.Values(o1)); !slices.Equal(s, players) {
		t.Errorf("order %v is not a permutation of %v", o1, players)
	}
	seen := map[string]bool{}
	for seed := range uint64(40) {
		seen[PlayingOrder(players, rand.New(rand.NewPCG(seed, 0)))[0]] = true
	}
	if len(seen) != 4 {
		t.Errorf("40 draws put only %v first", seen)
	}
}

// TestTerrainsPerPlayer: "If 2 to 6 factions participate, 2 terrains ...
// If more factions are in the game, each player may only place 1" (source).
func TestTerrainsPerPlayer(t *testing.T) {
	for n, want := range map[int]int{2: 2, 4: 2, 6: 2, 8: 1} {
		if got := TerrainsPerPlayer(n); got != want {
			t.Errorf("%d factions: got %d, want %d", n, got, want)
		}
	}
	if MayChoose(Evil, "Forest") || MayChoose(Evil, "good temple") || MayChoose(Good, "scorched valley") || MayChoose(Good, "evil-temple") || !MayChoose(Good, "lake") {
		t.Error("terrain choice by alignment does not follow the text")
	}
}

func problemRules(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Rule)
	}
	return out
}

// TestCheckSetup runs the set-up rules of the text (source, "The Set-Up")
// on a legal table and on tables that break one rule each.
func TestCheckSetup(t *testing.T) {
	army := []models.Disk{withPoints(unit("k1", "Swordsmen", "kate", 30, 20), 100)}
	ps, err := CheckSetup(with(fourFactions(), army...))
	if err != nil || len(ps) != 0 {
		t.Fatalf("legal setup: got %+v (%v), want no problem", ps, err)
	}
	cases := []struct {
		name string
		edit func(*models.Layout)
		want string
	}{
		{"three good factions against one evil", func(l *models.Layout) { l.Disks[3].Side = "good" }, "alignments"},
		{"an evil player places a forest", func(l *models.Layout) { l.Disks[7].Terrain = Forest }, "terrain alignment"},
		{"a player places two mountains", func(l *models.Layout) { l.Disks[5].Terrain, l.Disks[5].Owner = Mountain, "eli" }, "terrain once"},
		{"terrains 5 cm apart", func(l *models.Layout) { l.Disks[7].X = 103 }, "terrain spacing"},
		{"a terrain 15 cm from a homeland", func(l *models.Layout) { l.Disks[5].X, l.Disks[5].Y = 20, 45 }, "homeland spacing"},
		{"no central mountain", func(l *models.Layout) { l.Disks[4].X = 100 }, "central mountain"},
		{"a unit 11 cm from its homeland", func(l *models.Layout) { l.Disks = append(l.Disks, unit("k2", "Swordsmen", "kate", 20+6+11+1.5, 20)) }, "army placement"},
		{"a mixed army", func(l *models.Layout) {
			d := unit("k3", "Grugs", "kate", 25, 20)
			d.Faction = "orcs"
			l.Disks = append(l.Disks, d)
		}, "army rules"},
		{"the banned spell", func(l *models.Layout) {
			d := unit("k4", "Depletion", "kate", 25, 20)
			d.Kind = models.KindSpell
			l.Disks = append(l.Disks, d)
		}, "army rules"},
		{"151 points", func(l *models.Layout) {
			l.Disks = append(l.Disks, withPoints(unit("k5", "Peasants", "kate", 25, 25), 51))
		}, "army points"},
		{"a unique chosen twice", func(l *models.Layout) {
			a, b := unit("u1", "Ceryx Jade", "kate", 25, 20), unit("u2", "Ceryx Jade", "eli", 25, 100)
			a.Keywords, b.Keywords = []string{"unique"}, []string{"unique"}
			l.Disks = append(l.Disks, a, b)
		}, "unique once"},
		{"Firbolg in a good army", func(l *models.Layout) { l.Disks = append(l.Disks, unit("f", "Firbolg the Giant", "kate", 25, 20)) }, "army rules"},
		{"good and evil homelands alternate", func(l *models.Layout) { l.Disks[1].X, l.Disks[1].Y, l.Disks[3].X, l.Disks[3].Y = 160, 100, 20, 100 }, "homeland blocks"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := fourFactions()
			l.Disks = append(l.Disks, army...)
			c.edit(&l)
			ps, err := CheckSetup(with(l))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(problemRules(ps), c.want) {
				t.Errorf("got problems %+v, want one of rule %q", ps, c.want)
			}
		})
	}
}

func withPoints(d models.Disk, p int) models.Disk {
	d.Stats = models.Stats{"points": p}
	return d
}

func TestCaptures(t *testing.T) {
	cases := []struct {
		name  string
		disks []models.Disk
		want  []string // homeland:by
	}{
		{"an empty homeland is not conquered", nil, nil},
		{"an enemy alone on a homeland conquers it", []models.Disk{unit("o1", "Grugs", "oscar", 20, 20)}, []string{"kate:oscar"}},
		{"a defender keeps it", []models.Disk{unit("o1", "Grugs", "oscar", 18, 20), unit("k1", "Swordsmen", "kate", 22, 20)}, nil},
		{"an ally defends it too", []models.Disk{unit("o1", "Grugs", "oscar", 18, 20), unit("e1", "Archers", "eli", 22, 20)}, nil},
		{"the enemy with most disks conquers", []models.Disk{unit("o1", "Grugs", "oscar", 18, 20), unit("u1", "Warriors of Yllan", "ursula", 22, 20), unit("u2", "Warriors of Yllan", "ursula", 20, 23)}, []string{"kate:ursula"}},
		{"a tie goes to the first in the playing order", []models.Disk{unit("o1", "Grugs", "oscar", 18, 20), unit("u1", "Warriors of Yllan", "ursula", 22, 20)}, []string{"kate:ursula"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			caps, err := Captures(with(fourFactions(), c.disks...), nil, []string{"ursula", "oscar", "kate", "eli"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, cp := range caps {
				got = append(got, cp.Homeland+":"+cp.By)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestHomelandAbilities checks the Knights', Acolytes', Undead and
// Dwarves' homelands (source, "the factions and their homelands have some
// special abilities").
func TestHomelandAbilities(t *testing.T) {
	l := models.Layout{Version: 1, Disks: []models.Disk{
		terrain("hk", Homeland, "kate", "knights", 20, 20),
		terrain("ha", Homeland, "abe", "disciples", 20, 100),
		terrain("hu", Homeland, "ned", "undead", 160, 20),
		terrain("hd", Homeland, "dora", "dwarves", 90, 100),
		terrain("hg", Homeland, "gor", "orcs", 160, 100),
		terrain("m", Mountain, "", "", 90, 60),
		unit("k1", "Swordsmen", "kate", 20, 20),
		unit("o1", "Grugs", "gor", 22, 22),
		unit("w1", "Warrior Priest", "abe", 20, 100),
		unit("n1", "Undead Horde", "ned", 160, 20),
		unit("k2", "Swordsmen", "kate", 162, 22),
		unit("dm1", "Dwarven Miner", "dora", 90, 100),
		unit("dm2", "Dwarven Miner", "dora", 90, 60),
		withKw(unit("g1", "Skeleton Archers", "ned", 100, 20), "homeland-guard"),
	}}
	l.Disks[8].WoundsTaken = 1
	ab, err := HomelandAbilities(with(l))
	if err != nil {
		t.Fatal(err)
	}
	wantMods := []Modifier{
		{"k1", "defense", 1, "Knights' homeland"}, {"k1", "toughness", 1, "Knights' homeland"},
		{"k2", "attack", -1, "Undead homeland"},
	}
	if !reflect.DeepEqual(ab.Modifiers, wantMods) {
		t.Errorf("modifiers: got %+v, want %+v", ab.Modifiers, wantMods)
	}
	if !slices.Equal(ab.Heal, []string{"w1"}) {
		t.Errorf("heal: got %v, want [w1]", ab.Heal)
	}
	if !reflect.DeepEqual(ab.MinerEntries, map[string][]string{"dora": {"m"}}) {
		t.Errorf("miner entries: got %v", ab.MinerEntries)
	}
	if !slices.Equal(ab.GuardsLost, []string{"g1"}) {
		t.Errorf("guards lost: got %v, want [g1]", ab.GuardsLost)
	}
	l.Disks = append(l.Disks, unit("o2", "Grugs", "gor", 22, 98))
	ab, _ = HomelandAbilities(with(l))
	if len(ab.Heal) != 0 {
		t.Errorf("an evil disk on the Acolytes' homeland: got heal %v, want none", ab.Heal)
	}
}

func withKw(d models.Disk, kw ...string) models.Disk {
	d.Keywords = kw
	return d
}
