package battle9

import "testing"

// TestPerftHandCounted: move counts worked out by hand from the default
// unit table, the oracle for the move generator.
func TestPerftHandCounted(t *testing.T) {
	cases := []struct {
		name  string
		pos   Position
		depth int
		want  int
	}{
		// King e1: d1 f1 d2 e2 f2.
		{"lone Kings, King on the edge", board(t, "dwarfs:orcs", First, "Ke1", "ke9"), 1, 5},
		// 5 moves for each King, far apart.
		{"lone Kings, two plies", board(t, "dwarfs:orcs", First, "Ke1", "ke9"), 2, 25},
		// Howitzer e5: 8 along the file, 8 along the row; King a1: 3.
		{"Howitzer in the centre", board(t, "dwarfs:orcs", First, "Ka1", "He5", "ki9"), 1, 19},
		// Troll e5: 5 single moves, 9 further squares in two; King a1: 3.
		{"Troll in the centre", board(t, "orcs:dwarfs", First, "Ka1", "Te5", "ki9"), 1, 17},
		// Shaman e5: 8 dots and its explosion; King a1: 3.
		{"Shaman in the centre", board(t, "orcs:dwarfs", First, "Ka1", "Se5", "ki9", "we7"), 1, 12},
		// Mage e5: 8 dots, 8 knight leaps; King a1: 3.
		{"Mage in the centre", board(t, "humans:orcs", First, "Ka1", "Me5", "ki9"), 1, 19},
		// Runemaster e5: 8 dots, 8 leaps of two; King a1: 3.
		{"Runemaster in the centre", board(t, "dwarfs:orcs", First, "Ka1", "Re5", "ki9"), 1, 19},
		// The Warrior on e4 blocks the Howitzer's arrow: King e1 has its 5
		// squares, the Warrior only e5 (leaving the file would expose the King).
		{"a blocked arrow does not attack", board(t, "dwarfs:dwarfs", First, "Ke1", "We4", "ki9", "he9"), 1, 6},
		// Second side's Goblin e5 moves towards row 1: d4 e4 f4; King i9: h9 h8 i8.
		{"second side's Goblin", board(t, "dwarfs:orcs", Second, "Ka1", "ge5", "ki9"), 1, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Perft(c.pos, c.depth); got != c.want {
				t.Errorf("Perft(%s, %d): got %d, want %d", c.pos, c.depth, got, c.want)
			}
		})
	}
}
