package battle9

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Tests of the source's sections "Lineup of the army" and the setup
// (../shared/seeds/003_cde703ca0257933f.txt), one test per sentence,
// against the default unit table.

func army(t testing.TB, race string, units map[string]int) Army {
	t.Helper()
	a, err := DefaultTable().Army(Lineup{Race: race, Units: units})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func lineupErr(race string, units map[string]int) error {
	_, err := DefaultTable().Army(Lineup{Race: race, Units: units})
	return err
}

// "To build an army you first have to choose a race."
func TestSourceChooseARace(t *testing.T) {
	err := lineupErr("", map[string]int{"Warrior": 3})
	if !errors.Is(err, ErrUnknownRace) || !errors.Is(err, ErrLineup) {
		t.Fatalf("a lineup without a race: got %v, want ErrUnknownRace", err)
	}
	if !strings.Contains(err.Error(), "choose a race") {
		t.Errorf("message %q: want it to say to choose a race", err)
	}
}

// "You can choose between dwarfs, elves, humans, orcs and the undead."
func TestSourceFiveRaces(t *testing.T) {
	got := DefaultTable().RaceNames()
	want := []string{"dwarfs", "elves", "humans", "orcs", "undead"}
	if !slices.Equal(got, want) {
		t.Errorf("races: got %v, want %v", got, want)
	}
	for _, r := range want {
		if err := lineupErr(r, nil); err != nil {
			t.Errorf("race %s: got %v, want it accepted", r, err)
		}
	}
	if err := lineupErr("gnomes", nil); !errors.Is(err, ErrUnknownRace) {
		t.Errorf("race gnomes: got %v, want ErrUnknownRace", err)
	}
}

// "Every race has its own units which you can use to build the army."
func TestSourceOwnUnits(t *testing.T) {
	if err := lineupErr("dwarfs", map[string]int{"Mage": 1}); !errors.Is(err, ErrUnknownUnit) {
		t.Errorf("a dwarf army with a human Mage: got %v, want ErrUnknownUnit", err)
	}
	if err := lineupErr("humans", map[string]int{"Mage": 1}); err != nil {
		t.Errorf("a human army with a Mage: got %v, want accepted", err)
	}
}

// "You can use any type of unit as often as you want but in sum the cost
// can't exceed 50."
func TestSourceCostAtMost50(t *testing.T) {
	cases := []struct {
		name  string
		race  string
		units map[string]int
		cost  int
		ok    bool
	}{
		{"25 Warriors cost exactly 50", "dwarfs", map[string]int{"Warrior": 25}, 50, true},
		{"5 Runemasters cost exactly 50", "dwarfs", map[string]int{"Runemaster": 5}, 50, true},
		{"7 Howitzers cost 49", "dwarfs", map[string]int{"Howitzer": 7}, 49, true},
		{"5 Runemasters and a Warrior cost 52", "dwarfs", map[string]int{"Runemaster": 5, "Warrior": 1}, 52, false},
		{"6 Liches cost 60", "undead", map[string]int{"Lich": 6}, 60, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := DefaultTable().Army(Lineup{Race: c.race, Units: c.units})
			if c.ok {
				if err != nil || a.Cost() != c.cost {
					t.Errorf("got cost %d, err %v; want cost %d, accepted", a.Cost(), err, c.cost)
				}
				return
			}
			if !errors.Is(err, ErrOverBudget) || !strings.Contains(err.Error(), "50") {
				t.Errorf("got %v, want ErrOverBudget naming 50", err)
			}
		})
	}
}

// "Both players additionally get a King - you cannot buy more Kings."
func TestSourceFreeKing(t *testing.T) {
	a := army(t, "dwarfs", map[string]int{"Warrior": 3})
	if got := a.Counts[0]; got != 1 || a.Race.Units[0].Name != "King" {
		t.Errorf("Kings given: got %d, want 1", got)
	}
	if got := a.Cost(); got != 6 {
		t.Errorf("cost of 3 Warriors and the King: got %d, want 6 (the King is free)", got)
	}
	if b := army(t, "dwarfs", map[string]int{"Warrior": 3, "King": 1}); !slices.Equal(b.Counts, a.Counts) {
		t.Errorf("writing the King down: got %v, want %v", b.Counts, a.Counts)
	}
	if err := lineupErr("dwarfs", map[string]int{"King": 2}); !errors.Is(err, ErrBuyKing) {
		t.Errorf("2 Kings: got %v, want ErrBuyKing", err)
	}
	bad := strings.Replace(string(DefaultTableJSON()), `"cost": 0, "king": true`, `"cost": 3, "king": true`, 1)
	if _, err := ParseTable([]byte(bad), "t"); !errors.Is(err, ErrTable) {
		t.Errorf("a table where a King costs 3: got %v, want ErrTable", err)
	}
}

// "(concerning elves: the last King)": elves get several Kings (3 in the
// default table) and cannot buy more.
func TestSourceElvesSeveralKings(t *testing.T) {
	a := army(t, "elves", nil)
	if got := a.Counts[0]; got != 3 {
		t.Errorf("elf Kings: got %d, want 3 (default)", got)
	}
	if err := lineupErr("elves", map[string]int{"King": 4}); !errors.Is(err, ErrBuyKing) {
		t.Errorf("4 elf Kings: got %v, want ErrBuyKing", err)
	}
}

// "The army can have 27 units at most (including the King)."
func TestSourceAtMost27Units(t *testing.T) {
	a := army(t, "orcs", map[string]int{"Goblin": 26})
	if a.Size() != 27 {
		t.Errorf("26 Goblins and the King: got %d units, want 27", a.Size())
	}
	err := lineupErr("orcs", map[string]int{"Goblin": 27})
	if !errors.Is(err, ErrTooManyUnits) || errors.Is(err, ErrOverBudget) {
		t.Errorf("27 Goblins and the King (cost 27): got %v, want ErrTooManyUnits only", err)
	}
	if err := lineupErr("elves", map[string]int{"Scout": 25}); !errors.Is(err, ErrTooManyUnits) {
		t.Errorf("25 Scouts and 3 elf Kings: got %v, want ErrTooManyUnits", err)
	}
}

// Huge counts or costs must not wrap around to a small total that passes
// "in sum the cost can't exceed 50" and "27 units at most".
func TestLineupCountsDoNotOverflow(t *testing.T) {
	custom, err := ParseTable(DefaultTableJSON(), "copy")
	if err != nil {
		t.Fatal(err)
	}
	dwarfs, _ := custom.Race("dwarfs")
	w, _ := dwarfs.Unit("Warrior")
	w.Cost = math.MaxInt64 // a --units table may say so
	cases := []struct {
		name  string
		table *Table
		units map[string]int
		want  error
	}{
		{"MaxInt64 Warriors", DefaultTable(), map[string]int{"Warrior": math.MaxInt64, "Trapper": 1}, ErrTooManyUnits},
		{"28 Warriors", DefaultTable(), map[string]int{"Warrior": 28}, ErrTooManyUnits},
		{"two Warriors costing MaxInt64", custom, map[string]int{"Warrior": 2}, ErrOverBudget},
		{"a Warrior costing MaxInt64 and a Trapper", custom, map[string]int{"Warrior": 1, "Trapper": 1}, ErrOverBudget},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.table.Army(Lineup{Race: "dwarfs", Units: c.units}); !errors.Is(err, c.want) {
				t.Errorf("got %v, want %v", err, c.want)
			}
		})
	}
	a := Army{Race: dwarfs, Counts: []int{1, math.MaxInt64, 0, math.MaxInt64, 0}}
	if a.Cost() != math.MaxInt || a.Size() != math.MaxInt {
		t.Errorf("an army too large to count: got cost %d, size %d, want both math.MaxInt", a.Cost(), a.Size())
	}
}

// "For example if you play dwarfs your army can consist of 1 King, 3
// Warriors, 3 Howitzers, 3 Trappers and 1 Runemaster."
func TestSourceDwarfExample(t *testing.T) {
	l, err := ParseLineup([]byte(`{"race": "dwarfs", "units": {"King": 1, "Warriors": 3, "Howitzers": 3, "Trappers": 3, "Runemaster": 1}}`), "example")
	if err != nil {
		t.Fatal(err)
	}
	a, err := DefaultTable().Army(l)
	if err != nil {
		t.Fatalf("the source's dwarf army: got %v, want accepted", err)
	}
	if a.Size() != 11 || a.Cost() > 50 {
		t.Errorf("got %d units costing %d, want 11 units costing at most 50", a.Size(), a.Cost())
	}
}

func TestLineupReportsEveryProblem(t *testing.T) {
	err := lineupErr("dwarfs", map[string]int{"Mage": 1, "Warrior": -1, "Runemaster": 6})
	for _, want := range []error{ErrUnknownUnit, ErrBadCount, ErrOverBudget} {
		if !errors.Is(err, want) {
			t.Errorf("got %v, want it to include %v", err, want)
		}
	}
}

// "After the (secret) lineup of the armies the players show them to each
// other. The player with more units begins with the setup (random in case
// of a tie)"
func TestSourceMoreUnitsSetsUpFirst(t *testing.T) {
	big := army(t, "dwarfs", map[string]int{"Warrior": 3, "Howitzer": 3, "Trapper": 3, "Runemaster": 1})
	small := army(t, "orcs", map[string]int{"Shaman": 2})
	for _, c := range []struct {
		name string
		a, b Army
		want int
	}{
		{"the first lineup has more units", big, small, 0},
		{"the second lineup has more units", small, big, 1},
	} {
		s, err := NewSetup(DefaultTable(), c.a, c.b, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.FirstPlayer(); got != c.want {
			t.Errorf("%s: got player %d first, want %d", c.name, got, c.want)
		}
		if got := s.Board().Race(First).Name; got != "dwarfs" {
			t.Errorf("%s: rows 1-3 go to the %s, want the dwarfs", c.name, got)
		}
	}
}

func TestSourceTieIsRandom(t *testing.T) {
	a := army(t, "dwarfs", map[string]int{"Warrior": 2})
	b := army(t, "orcs", map[string]int{"Goblin": 2})
	if _, err := NewSetup(DefaultTable(), a, b, nil); !errors.Is(err, ErrNeedRandom) {
		t.Fatalf("a tie without a random source: got %v, want ErrNeedRandom", err)
	}
	seen := map[int]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		s1, _ := NewSetup(DefaultTable(), a, b, rand.New(rand.NewPCG(seed, 7)))
		s2, _ := NewSetup(DefaultTable(), a, b, rand.New(rand.NewPCG(seed, 7)))
		if s1.FirstPlayer() != s2.FirstPlayer() {
			t.Fatalf("seed %d: got different first players with the same seed", seed)
		}
		seen[s1.FirstPlayer()] = true
	}
	if !seen[0] || !seen[1] {
		t.Errorf("20 seeds: got first players %v, want both players to be drawn", seen)
	}
}

// "The game is played on a board with 9x9 squares."
func TestSourceBoard9x9(t *testing.T) {
	if NumSquares != 81 {
		t.Errorf("squares: got %d, want 81", NumSquares)
	}
	for _, bad := range []string{"j1", "a10", "a0", "e"} {
		if _, err := ParseSquare(bad); err == nil {
			t.Errorf("square %q: got accepted, want an error", bad)
		}
	}
	for _, bad := range []string{
		"dwarfs:orcs 4k4/9/9/9/9/9/9/4K4 1",     // 8 rows
		"dwarfs:orcs 4k4/9/9/9/9/9/9/9/9/4K4 1", // 10 rows
		"dwarfs:orcs 4k5/9/9/9/9/9/9/9/4K4 1",   // 10 squares in a row
		"dwarfs:orcs 4k3/9/9/9/9/9/9/9/4K4 1",   // 8 squares in a row
		"dwarfs:orcs 4k4K/9/9/9/9/9/9/9/4K4 1",  // a letter past the ninth file
	} {
		if _, err := ParsePosition(bad, DefaultTable()); !errors.Is(err, ErrPosition) {
			t.Errorf("%q: got %v, want ErrPosition", bad, err)
		}
	}
}

func setupOf(t *testing.T, a, b Army) Setup {
	t.Helper()
	s, err := NewSetup(DefaultTable(), a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// "The first player can put his units on rows 1-3, the other player on
// rows 7-9."
func TestSourceSetupRows(t *testing.T) {
	for _, sd := range []Side{First, Second} {
		n := 0
		for sq := Square(0); sq < NumSquares; sq++ {
			if HomeRows(sd, sq) {
				n++
				if r := sq.Row() + 1; (sd == First && r > 3) || (sd == Second && r < 7) {
					t.Errorf("%s player may place on %s", sd, sq)
				}
			}
		}
		if n != 27 {
			t.Errorf("%s player's squares: got %d, want 27", sd, n)
		}
	}
	s := setupOf(t, army(t, "dwarfs", map[string]int{"Warrior": 2}), army(t, "orcs", nil))
	if _, err := s.Place(First, "Warrior", mustSquare(t, "a4")); !errors.Is(err, ErrOutsideRows) {
		t.Errorf("first player on a4: got %v, want ErrOutsideRows", err)
	}
	s, err := s.Place(First, "Warrior", mustSquare(t, "a3"))
	if err != nil {
		t.Fatalf("first player on a3: %v", err)
	}
	if _, err := s.Place(Second, "King", mustSquare(t, "a6")); !errors.Is(err, ErrOutsideRows) {
		t.Errorf("second player on a6: got %v, want ErrOutsideRows", err)
	}
	if _, err := s.Place(Second, "King", mustSquare(t, "a7")); err != nil {
		t.Errorf("second player on a7: got %v, want accepted", err)
	}
}

// "The players alternately put units onto the board."
func TestSourceAlternatePlacement(t *testing.T) {
	s := setupOf(t, army(t, "dwarfs", map[string]int{"Warrior": 2}), army(t, "orcs", map[string]int{"Goblin": 1}))
	s, err := s.Place(First, "Warrior", mustSquare(t, "a1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Place(First, "Warrior", mustSquare(t, "b1")); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("first player twice in a row: got %v, want ErrNotYourTurn", err)
	}
	if next, _ := s.Next(); next != Second {
		t.Errorf("after the first player: got %s to place, want second", next)
	}
	if _, err := s.Place(Second, "Goblin", mustSquare(t, "a1")); !errors.Is(err, ErrOutsideRows) {
		t.Errorf("second player on a1: got %v, want ErrOutsideRows", err)
	}
	if _, err := s.Place(Second, "Troll", mustSquare(t, "a9")); !errors.Is(err, ErrNoneLeft) {
		t.Errorf("a Troll not in the army: got %v, want ErrNoneLeft", err)
	}
	s, err = s.Place(Second, "Goblin", mustSquare(t, "a9"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Place(First, "Warrior", mustSquare(t, "a1")); !errors.Is(err, ErrOccupied) {
		t.Errorf("on an occupied square: got %v, want ErrOccupied", err)
	}
}

// "As soon as one player positioned his last piece, the other player puts
// all remaining units onto the board."
// "The player who hasn't put the last unit onto the board begins."
func TestSourceRestAtOnceAndWhoBegins(t *testing.T) {
	s := setupOf(t, army(t, "dwarfs", map[string]int{"Warrior": 3}), army(t, "orcs", nil))
	s, _ = s.Place(First, "King", mustSquare(t, "e1"))
	if _, err := s.PlaceRest(First, nil); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("placing the rest while the other still has units: got %v, want ErrNotYourTurn", err)
	}
	s, err := s.Place(Second, "King", mustSquare(t, "e9")) // the orcs' last unit
	if err != nil {
		t.Fatal(err)
	}
	if next, ok := s.Next(); !ok || next != First {
		t.Fatalf("after the orcs' last unit: got %s (%v), want the dwarfs to place the rest", next, ok)
	}
	if _, err := s.Battle(); !errors.Is(err, ErrSetupNotOver) {
		t.Errorf("battle before the end of the setup: got %v, want ErrSetupNotOver", err)
	}
	rest := []Placement{{"Warrior", mustSquare(t, "d2")}, {"Warrior", mustSquare(t, "e2")}, {"Warrior", mustSquare(t, "f2")}}
	if _, err := s.PlaceRest(First, rest[:2]); !errors.Is(err, ErrNoneLeft) {
		t.Errorf("placing only part of the rest: got %v, want ErrNoneLeft", err)
	}
	s, err = s.PlaceRest(First, rest)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Next(); ok {
		t.Errorf("after every unit: got more to place")
	}
	p, err := s.Battle()
	if err != nil {
		t.Fatal(err)
	}
	if p.ToMove() != Second {
		t.Errorf("the dwarfs placed the last unit: got %s to move, want second", p.ToMove())
	}
	if got := p.String(); got != "dwarfs:orcs 4k4/9/9/9/9/9/9/3WWW3/4K4 2" {
		t.Errorf("battle position: got %q", got)
	}
}

func TestSourceEqualArmiesFirstPlayerBegins(t *testing.T) {
	a := army(t, "dwarfs", map[string]int{"Warrior": 1})
	b := army(t, "orcs", map[string]int{"Goblin": 1})
	s, err := NewSetup(DefaultTable(), a, b, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	firstUnit, secondUnit := "Warrior", "Goblin"
	if s.FirstPlayer() == 1 {
		firstUnit, secondUnit = secondUnit, firstUnit
	}
	steps := []struct {
		side Side
		unit string
		sq   string
	}{{First, "King", "e1"}, {Second, "King", "e9"}, {First, firstUnit, "e2"}, {Second, secondUnit, "e8"}}
	for _, st := range steps {
		if s, err = s.Place(st.side, st.unit, mustSquare(t, st.sq)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Battle()
	if err != nil {
		t.Fatal(err)
	}
	if p.ToMove() != First {
		t.Errorf("the second player placed the last unit: got %s to move, want first", p.ToMove())
	}
}

func TestSetupRefusesUncheckedArmies(t *testing.T) {
	good := army(t, "dwarfs", nil)
	if _, err := NewSetup(DefaultTable(), Army{}, good, nil); err == nil {
		t.Errorf("an army without a race: got a setup, want an error")
	}
	other, err := ParseTable([]byte(miniTable), "mini")
	if err != nil {
		t.Fatal(err)
	}
	alien, err := other.Army(Lineup{Race: "r", Units: map[string]int{"Pawn": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSetup(DefaultTable(), alien, good, nil); err == nil {
		t.Errorf("an army of another table: got a setup, want an error")
	}
}
