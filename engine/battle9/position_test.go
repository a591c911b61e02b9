package battle9

import (
	"errors"
	"strings"
	"testing"
)

var positionFixtures = []string{
	"dwarfs:orcs 4k4/9/9/9/9/9/9/9/4K4 1",
	"humans:undead 1gwsksgw1/zzzzzzzzz/9/9/9/9/9/FAARMRAAF/4K4 2",
	"elves:elves k3k3k/9/9/4A4/9/9/9/9/K3K3K 1",
	"orcs:dwarfs 8k/9/9/9/9/9/9/9/K8 1",
	"elves:orcs 9/9/9/9/9/4k4/9/9/4K4 2", // two elf Kings lost in play
	// 27 units each, within the budget: 43 and 33
	"orcs:undead sssskssss/sssssssss/zzzzlzzzz/9/9/9/GGGGSGGGG/GGGGGGGGG/GGGGKGGGG 2",
}

func TestPositionRoundTrip(t *testing.T) {
	for _, text := range positionFixtures {
		p, err := ParsePosition(text, DefaultTable())
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := p.String(); got != text {
			t.Errorf("round trip: got %q, want %q", got, text)
		}
		q, err := ParsePosition(p.String(), DefaultTable())
		if err != nil || !q.Equal(p) {
			t.Errorf("%q: parsed again, got a different position (%v)", text, err)
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	cases := []struct{ name, text string }{
		{"two fields", "dwarfs:orcs 9/9/9/9/9/9/9/9/9"},
		{"one race", "dwarfs 9/9/9/9/9/9/9/9/9 1"},
		{"unknown race", "dwarfs:gnomes 9/9/9/9/9/9/9/9/9 1"},
		{"letter of another race", "dwarfs:orcs 9/9/9/9/9/9/9/9/4M4 1"},
		{"not a letter", "dwarfs:orcs 9/9/9/9/9/9/9/9/4?4 1"},
		{"zero as a run", "dwarfs:orcs 9/9/9/9/9/9/9/9/09 1"},
		{"bad side", "dwarfs:orcs 9/9/9/9/9/9/9/9/9 3"},
		{"empty", ""},
	}
	for _, c := range cases {
		if _, err := ParsePosition(c.text, DefaultTable()); !errors.Is(err, ErrPosition) {
			t.Errorf("%s: %q: got %v, want ErrPosition", c.name, c.text, err)
		}
	}
}

// Positions that read well but cannot arise in a game are refused too,
// saying why.
func TestParsePositionImpossible(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"no Kings at all", "dwarfs:orcs 9/9/9/9/9/9/9/9/9 1", "first player (dwarfs) has no King"},
		{"second side without King", "dwarfs:orcs 9/9/9/9/9/9/9/9/4K4 1", "second player (orcs) has no King"},
		{"elves without King", "elves:orcs 4k4/9/9/9/9/9/9/9/4A4 1", "first player (elves) has no King"},
		{"a bought King", "dwarfs:undead 4k4/9/9/9/9/9/9/9/3KK4 1", "has 2 Kings: the dwarfs get 1"},
		{"more elf Kings than given", "elves:orcs 4k4/9/9/9/9/9/9/9/KKKK5 1", "has 4 Kings: the elves get 3"},
		{"28 units", "dwarfs:orcs 4k4/9/9/9/9/4W4/WWWWWWWWW/WWWWWWWWW/WWWWKWWWW 1", "has 28 units: an army has 27 at most"},
		{"side not to move in check", "dwarfs:undead 4k4/9/9/9/9/9/9/9/4H3K 1", "second player's King can be captured"},
		{"humans costing 53", "humans:elves 1k2k2k1/2rasar2/1sssssss1/9/9/9/FFFF1FFFF/2AMRMA2/4K4 1",
			"the first player's units (humans) cost 53: in sum the cost can't exceed 50"},
		{"undead costing 59", "undead:orcs 4k4/1tsoots2/ggggggggg/9/9/9/ZZZSSSZZZ/1GWLKLWG1/9 2",
			"the first player's units (undead) cost 59: in sum the cost can't exceed 50"},
		{"full dwarf rows costing 121", "dwarfs:dwarfs wwwwkwwww/hhhhhhhhh/ttttrtttt/9/9/9/TTTTRTTTT/HHHHHHHHH/WWWWKWWWW 2",
			"the first player's units (dwarfs) cost 121"},
		{"the second side over the budget", "dwarfs:undead 3lkl3/4l4/4l4/1l5l1/9/9/9/9/4K4 1",
			"the second player's units (undead) cost 60"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePosition(c.text, DefaultTable())
			if !errors.Is(err, ErrPosition) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%q: got %v, want ErrPosition saying %q", c.text, err, c.want)
			}
		})
	}
}

// "You can use any type of unit as often as you want but in sum the cost
// can't exceed 50. Both players additionally get a King"
// (../shared/seeds/003_cde703ca0257933f.txt, "Lineup of the army"): no
// move adds a unit or turns one into another, so the units a side has on
// the board never cost more than 50, the Kings counting nothing; the
// table's budget is the limit.
func TestParsePositionBudget(t *testing.T) {
	sixty := strings.Replace(string(DefaultTableJSON()), `"budget": 50`, `"budget": 60`, 1)
	tbl60, err := ParseTable([]byte(sixty), "budget 60")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, text string
		table      *Table
		cost       [2]int
		ok         bool
	}{
		{"exactly 50 is allowed", "undead:orcs 4k4/9/9/9/9/9/9/9/LLLLKL3 1", DefaultTable(), [2]int{50, 0}, true},
		{"51 is not", "undead:orcs 4k4/9/9/9/9/9/9/S8/LLLLKL3 1", DefaultTable(), [2]int{51, 0}, false},
		{"the Kings are free", "elves:orcs 4k4/9/9/9/9/9/9/AAAAAAAAA/KAK3K2 1", DefaultTable(), [2]int{50, 0}, true},
		{"the second side counts too", "orcs:elves k1k1k4/aaaaaaaaa/a8/9/9/9/9/9/4K4 1", DefaultTable(), [2]int{0, 50}, true},
		{"a mid-game army may cost less", "humans:undead 4k4/9/9/9/9/9/9/9/M3K4 1", DefaultTable(), [2]int{10, 0}, true},
		{"the table's budget is the limit", "humans:elves 1k2k2k1/2rasar2/1sssssss1/9/9/9/FFFF1FFFF/2AMRMA2/4K4 1", tbl60, [2]int{53, 40}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParsePosition(c.text, c.table)
			if !c.ok {
				if !errors.Is(err, ErrPosition) || !errors.Is(err, ErrOverBudget) {
					t.Errorf("%q: got %v, want ErrPosition and ErrOverBudget", c.text, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: got %v, want accepted", c.text, err)
			}
			if got := [2]int{p.Cost(First), p.Cost(Second)}; got != c.cost {
				t.Errorf("costs: got %v, want %v", got, c.cost)
			}
		})
	}
}

// A character that is not a letter is named as written, not as its first
// byte: "é" is not reported as "Ã".
func TestParsePositionNamesNonASCIICharacters(t *testing.T) {
	for _, c := range []struct{ row, want string }{
		{"4é4", "'é'"},
		{"4ÿ4", "'ÿ'"},
		{"4♔4", "'♔'"},
		{"4\xff4", "byte 0xff"},
	} {
		text := "dwarfs:orcs 4k4/9/9/9/9/9/9/9/" + c.row + " 1"
		_, err := ParsePosition(text, DefaultTable())
		if !errors.Is(err, ErrPosition) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want ErrPosition naming %s", text, err, c.want)
		}
	}
}

func TestDiagram(t *testing.T) {
	p, _ := ParsePosition("dwarfs:orcs 4k4/9/9/9/9/9/9/9/4K4 1", DefaultTable())
	want := "9  . . . . k . . . .\n8  . . . . . . . . .\n7  . . . . . . . . .\n6  . . . . . . . . .\n5  . . . . . . . . .\n4  . . . . . . . . .\n3  . . . . . . . . .\n2  . . . . . . . . .\n1  . . . . K . . . .\n   a b c d e f g h i\n"
	if got := p.Diagram(); got != want {
		t.Errorf("diagram: got\n%s\nwant\n%s", got, want)
	}
}

func TestMoveText(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Move
		out  string
	}{
		{"e2-e4", StepMove(13, 31), "e2-e4"},
		{"E2xE4", StepMove(13, 31), "e2-e4"},
		{"e5-d5-c5", DoubleMove(40, 39, 38), "e5-d5-c5"},
		{"e5-d5xc6", DoubleMove(40, 39, 47), "e5-d5-c6"},
		{"e5*", ExplosionMove(40), "e5*"},
	} {
		got, err := ParseMove(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseMove(%q): got %v (%v), want %v", c.in, got, err, c.want)
		}
		if got.String() != c.out {
			t.Errorf("String: got %q, want %q", got.String(), c.out)
		}
	}
	for _, bad := range []string{"", "e2", "e2-", "e2--e4", "e2-e3-e4-e5", "j2-e4", "e2-e4*", "*", "xe2-e4"} {
		if _, err := ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q): got a move, want an error", bad)
		}
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range positionFixtures {
		f.Add(s)
	}
	f.Add("dwarfs:orcs 4k4/9/9/9/9/9/9/9/4K45 1")
	f.Add("dwarfs:orcs 99/9/9/9/9/9/9/9/9 1")
	tbl := DefaultTable()
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePosition(text, tbl)
		if err != nil {
			return
		}
		q, err := ParsePosition(p.String(), tbl)
		if err != nil {
			t.Fatalf("%q formats as %q which does not parse: %v", text, p.String(), err)
		}
		if !q.Equal(p) {
			t.Fatalf("%q: round trip changed the position", text)
		}
		p.LegalMoves() // must not panic on any board
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2-e4", "e5-d5xc6", "e5*", "a1xi9", "e2--e4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			return
		}
		if back, err := ParseMove(m.String()); err != nil || back != m {
			t.Fatalf("%q: round trip got %v (%v), want %v", text, back, err, m)
		}
	})
}
