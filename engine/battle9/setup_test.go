package battle9

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// placeAll plays the placements "side unit square" in order and fails the
// test on the first refusal.
func placeAll(t *testing.T, s Setup, steps ...string) Setup {
	t.Helper()
	for _, st := range steps {
		f := strings.Fields(st)
		sd := First
		if f[0] == "2" {
			sd = Second
		}
		var err error
		if s, err = s.Place(sd, f[1], mustSquare(t, f[2])); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
	return s
}

// "The player who hasn't put the last unit onto the board begins." and
// "A player is not allowed to move in such a way that his King ... can be
// captured.": the player who placed last has, in effect, just moved, so
// his King must not stand capturable when the battle begins. A placement
// that leaves one's own King capturable is refused when it is made.
func TestSetupRefusesOwnKingPlacedCapturable(t *testing.T) {
	orcs := army(t, "orcs", map[string]int{"Goblin": 2}) // 3 units: sets up first
	dwarfs := army(t, "dwarfs", map[string]int{"Howitzer": 1})
	s := setupOf(t, orcs, dwarfs)
	s = placeAll(t, s, "1 Goblin a1", "2 Howitzer e7", "1 Goblin b1", "2 King i9")
	for _, sq := range []string{"e3", "e1"} {
		_, err := s.Place(First, "King", mustSquare(t, sq))
		if !errors.Is(err, ErrKingCapturable) {
			t.Fatalf("orc King on %s, on the Howitzer's file: got %v, want ErrKingCapturable", sq, err)
		}
		for _, want := range []string{"King on " + sq, "Howitzer on e7"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("orc King on %s: %q does not say %q", sq, err, want)
			}
		}
	}
	s = placeAll(t, s, "1 King d1")
	p, err := s.Battle()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePosition(p.String(), DefaultTable()); err != nil {
		t.Errorf("the battle position %q does not parse: %v", p, err)
	}
}

// The other order: a King already placed cannot be attacked by a unit the
// opponent places afterwards. Its owner could not answer (no one moves
// during the setup, and no unit may stand on rows 4-6 to block a Howitzer),
// and had he to place the last unit, the battle would begin with his King
// capturable, a position the rules never allow.
func TestSetupRefusesAUnitPlacedToAttackAKing(t *testing.T) {
	orcs := army(t, "orcs", map[string]int{"Goblin": 3}) // 4 units: sets up first
	dwarfs := army(t, "dwarfs", map[string]int{"Howitzer": 1, "Trapper": 1})
	s := setupOf(t, orcs, dwarfs)
	s = placeAll(t, s, "1 King e3")
	cases := []struct{ unit, sq string }{
		{"Howitzer", "e7"}, // straight down the e-file
		{"Howitzer", "e9"},
		{"Trapper", "a7"}, // diagonally a7-b6-c5-d4-e3
		{"Trapper", "i7"},
	}
	for _, c := range cases {
		_, err := s.Place(Second, c.unit, mustSquare(t, c.sq))
		if !errors.Is(err, ErrAttacksKing) {
			t.Fatalf("%s on %s: got %v, want ErrAttacksKing", c.unit, c.sq, err)
		}
		for _, want := range []string{c.unit + " on " + c.sq, "King on e3"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s on %s: %q does not say %q", c.unit, c.sq, err, want)
			}
		}
	}
	s = placeAll(t, s, "2 Howitzer d7", "1 Goblin d3", "2 King e8", "1 Goblin f3", "2 Trapper e9", "1 Goblin a1")
	p, err := s.Battle()
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "orcs:dwarfs 4t4/4k4/3h5/9/9/9/3GKG3/9/G8 2" {
		t.Errorf("battle position: got %q", got)
	}
	if _, err := ParsePosition(p.String(), DefaultTable()); err != nil {
		t.Errorf("the battle position %q does not parse: %v", p, err)
	}
}

// Elves get several Kings and only the last one counts: while some are
// still to be placed, a King on an attacked square is no threat.
func TestSetupElfKingsCountWhenAllArePlaced(t *testing.T) {
	elves := army(t, "elves", map[string]int{"Scout": 1}) // 4 units: sets up first
	dwarfs := army(t, "dwarfs", map[string]int{"Howitzer": 1})
	s := setupOf(t, elves, dwarfs)
	s = placeAll(t, s, "1 King e1", "2 Howitzer e7", "1 King e2", "2 King a9", "1 King a1", "1 Scout i1")
	p, err := s.Battle()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.String(), "elves:dwarfs ") || p.ToMove() != Second {
		t.Errorf("battle position: got %q, want the dwarfs to begin", p)
	}
}

// Random setups of several armies, full 27-unit ones included: whatever
// legal placements the players choose, no one is left without a legal
// placement and the battle begins from a position ParsePosition accepts.
func TestSetupAlwaysEndsInAValidPosition(t *testing.T) {
	armies := [][2]Army{
		{army(t, "dwarfs", map[string]int{"Warrior": 3, "Howitzer": 3, "Trapper": 3, "Runemaster": 1}),
			army(t, "orcs", map[string]int{"Troll": 2, "Orc": 4, "Shaman": 1, "Goblin": 8})},
		{army(t, "humans", map[string]int{"Footman": 6, "Archer": 2, "Rider": 2, "Mage": 1}),
			army(t, "undead", map[string]int{"Lich": 2, "Wraith": 2, "Ghost": 1, "Skeleton": 3})},
		{army(t, "elves", map[string]int{"Ranger": 3, "Archer": 3, "Scout": 7}),
			army(t, "orcs", map[string]int{"Shaman": 2, "Troll": 3, "Goblin": 16})},
		{army(t, "undead", map[string]int{"Lich": 2, "Wraith": 1, "Skeleton": 23}), // 27 units each: full rows
			army(t, "orcs", map[string]int{"Goblin": 26})},
		{army(t, "humans", map[string]int{"Rider": 7}),
			army(t, "undead", map[string]int{"Lich": 2, "Wraith": 1, "Skeleton": 23})},
	}
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 3))
		pair := armies[seed%uint64(len(armies))]
		s, err := NewSetup(DefaultTable(), pair[0], pair[1], rng)
		if err != nil {
			t.Fatal(err)
		}
		for {
			sd, ok := s.Next()
			if !ok {
				break
			}
			if s, ok = placeRandomly(s, sd, rng); !ok {
				t.Fatalf("seed %d: the %s player has no legal placement left:\n%s", seed, sd, s.Board().Diagram())
			}
		}
		p, err := s.Battle()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if _, err := ParsePosition(p.String(), DefaultTable()); err != nil {
			t.Fatalf("seed %d: the battle position %q does not parse: %v", seed, p, err)
		}
	}
}

// placeRandomly places one of side sd's units on a random square the
// setup accepts; false when it accepts none.
func placeRandomly(s Setup, sd Side, rng *rand.Rand) (Setup, bool) {
	var units []string
	for name := range s.Left(sd) {
		units = append(units, name)
	}
	var sqs []Square
	for sq := Square(0); sq < NumSquares; sq++ {
		if HomeRows(sd, sq) {
			sqs = append(sqs, sq)
		}
	}
	slices.Sort(units) // map order is random: a seed must give one setup
	rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	rng.Shuffle(len(sqs), func(i, j int) { sqs[i], sqs[j] = sqs[j], sqs[i] })
	for _, u := range units {
		for _, sq := range sqs {
			if next, err := s.Place(sd, u, sq); err == nil {
				return next, true
			}
		}
	}
	return s, false
}

// An army built by hand rather than by Table.Army is held to the same
// lineup rules ("in sum the cost can't exceed 50", "27 units at most",
// "you cannot buy more Kings"): a setup could otherwise bring an army
// over the budget onto the board.
func TestSetupRechecksHandBuiltArmies(t *testing.T) {
	tbl := DefaultTable()
	dwarfs, _ := tbl.Race("dwarfs")
	good := army(t, "orcs", nil)
	cases := []struct {
		name   string
		counts []int // King, Warrior, Howitzer, Trapper, Runemaster
		want   error
	}{
		{"the source's example passes", []int{1, 3, 3, 3, 1}, nil},
		{"cost 51", []int{1, 0, 3, 5, 1}, ErrOverBudget},
		{"28 units", []int{1, 27, 0, 0, 0}, ErrTooManyUnits},
		{"a bought King", []int{2, 3, 0, 0, 0}, ErrBuyKing},
		{"no King", []int{0, 3, 0, 0, 0}, ErrBadCount},
		{"a negative count", []int{1, -1, 0, 0, 0}, ErrBadCount},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := Army{Race: dwarfs, Counts: c.counts}
			_, err := NewSetup(tbl, a, good, rand.New(rand.NewPCG(1, 1)))
			if c.want == nil {
				if err != nil {
					t.Errorf("got %v, want a setup", err)
				}
				return
			}
			if !errors.Is(err, c.want) || !errors.Is(err, ErrLineup) || !strings.Contains(err.Error(), "army 1 (dwarfs)") {
				t.Errorf("got %v, want ErrLineup and %v for army 1 (dwarfs)", err, c.want)
			}
		})
	}
}
