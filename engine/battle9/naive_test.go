package battle9

import "testing"

// A second move generator, written for these tests alone from the unit
// table's fields as the players read them (dots, arrows, jumps, like,
// double, explode) and the sentences of the source, without the engine's
// resolved vectors, move lists or attack tests. It is slow and simple: a
// move is legal when, on the board after it, no move of the opponent
// leaves the mover without a King ("A player is not allowed to move in
// such a way that his King (concerning elves: the last King) can be
// captured"). Perft counts of the engine are checked against it.

// naiveCell is one square: empty when u is nil.
type naiveCell struct {
	side Side
	u    *Unit
}

// naiveBoard is indexed [file][row], file a and row 1 being 0.
type naiveBoard [Size][Size]naiveCell

func naiveOf(p Position) naiveBoard {
	var b naiveBoard
	for f := range Size {
		for r := range Size {
			sq, _ := At(f, r)
			if pc, ok := p.At(sq); ok {
				b[f][r] = naiveCell{pc.Side, pc.Unit}
			}
		}
	}
	return b
}

var naiveDirs = map[string][][2]int{
	"F": {{0, 1}}, "B": {{0, -1}}, "L": {{-1, 0}}, "R": {{1, 0}},
	"FL": {{-1, 1}}, "FR": {{1, 1}}, "BL": {{-1, -1}}, "BR": {{1, -1}},
	"orth": {{0, 1}, {0, -1}, {-1, 0}, {1, 0}},
	"diag": {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}},
	"all":  {{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}},
}

// naiveAbilities gathers the dots, arrows and jumps of u and of the unit
// it moves like, turned for the second player, who sits across the table.
func naiveAbilities(r *Race, u *Unit, s Side) (dots, arrows, jumps [][2]int) {
	units := []*Unit{u}
	if u.Like != "" {
		for _, o := range r.Units {
			if o.Name == u.Like {
				units = append(units, o)
			}
		}
	}
	turn := func(d [2]int) [2]int {
		if s == Second {
			return [2]int{-d[0], -d[1]}
		}
		return d
	}
	for _, w := range units {
		for _, n := range w.Dots {
			for _, d := range naiveDirs[n] {
				dots = append(dots, turn(d))
			}
		}
		for _, n := range w.Arrows {
			for _, d := range naiveDirs[n] {
				arrows = append(arrows, turn(d))
			}
		}
		for _, j := range w.Jumps {
			jumps = append(jumps, turn(j))
		}
	}
	return dots, arrows, jumps
}

func onBoard(f, r int) bool { return f >= 0 && f < Size && r >= 0 && r < Size }

// naiveReach lists the squares the unit on (f, r) reaches in one move:
// not its own units' squares, arrows stopping at the first unit.
func naiveReach(b *naiveBoard, races [2]*Race, f, r int) [][2]int {
	c := b[f][r]
	dots, arrows, jumps := naiveAbilities(races[c.side], c.u, c.side)
	var out [][2]int
	free := func(x, y int) bool { return b[x][y].u == nil || b[x][y].side != c.side }
	for _, d := range append(dots, jumps...) {
		if x, y := f+d[0], r+d[1]; onBoard(x, y) && free(x, y) {
			out = append(out, [2]int{x, y})
		}
	}
	for _, d := range arrows {
		for x, y := f+d[0], r+d[1]; onBoard(x, y); x, y = x+d[0], y+d[1] {
			if free(x, y) {
				out = append(out, [2]int{x, y})
			}
			if b[x][y].u != nil {
				break
			}
		}
	}
	return out
}

// naiveAfter lists the boards side s can leave with one move, legal or
// not: one per destination of each unit (a Troll's two moves reaching a
// square it could reach in one, or through several squares, count once)
// and one per explosion.
func naiveAfter(b naiveBoard, races [2]*Race, s Side) []naiveBoard {
	var out []naiveBoard
	for f := range Size {
		for r := range Size {
			c := b[f][r]
			if c.u == nil || c.side != s {
				continue
			}
			seen := map[[2]int]bool{{f, r}: true} // back to the start is a pass
			moveTo := func(x, y int) {
				if seen[[2]int{x, y}] {
					return
				}
				seen[[2]int{x, y}] = true
				n := b
				n[f][r], n[x][y] = naiveCell{}, c
				out = append(out, n)
			}
			first := naiveReach(&b, races, f, r)
			for _, d := range first {
				moveTo(d[0], d[1])
			}
			if c.u.Double { // "may make another move if it hasn't captured on its first move"
				for _, d := range first {
					if b[d[0]][d[1]].u != nil {
						continue
					}
					mid := b
					mid[f][r], mid[d[0]][d[1]] = naiveCell{}, c
					for _, e := range naiveReach(&mid, races, d[0], d[1]) {
						moveTo(e[0], e[1])
					}
				}
			}
			if n, ok := naiveExplode(b, f, r); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// naiveExplode clears the area around (f, r), the Shaman included; not
// allowed when the own King stands in it.
func naiveExplode(b naiveBoard, f, r int) (naiveBoard, bool) {
	c := b[f][r]
	e := c.u.Explode
	if e == 0 {
		return b, false
	}
	for x := f - e; x <= f+e; x++ {
		for y := r - e; y <= r+e; y++ {
			if onBoard(x, y) {
				if o := b[x][y]; o.u != nil && o.side == c.side && o.u.King {
					return b, false
				}
				b[x][y] = naiveCell{}
			}
		}
	}
	return b, true
}

func naiveKings(b *naiveBoard, s Side) int {
	n := 0
	for f := range Size {
		for r := range Size {
			if c := b[f][r]; c.u != nil && c.side == s && c.u.King {
				n++
			}
		}
	}
	return n
}

// naiveLegal lists the boards after side s's legal moves: none once a
// side has no King.
func naiveLegal(b naiveBoard, races [2]*Race, s Side) []naiveBoard {
	if naiveKings(&b, First) == 0 || naiveKings(&b, Second) == 0 {
		return nil
	}
	var out []naiveBoard
	for _, n := range naiveAfter(b, races, s) {
		safe := true
		for _, reply := range naiveAfter(n, races, s.Other()) {
			if naiveKings(&reply, s) == 0 {
				safe = false
				break
			}
		}
		if safe {
			out = append(out, n)
		}
	}
	return out
}

func naivePerft(b naiveBoard, races [2]*Race, s Side, depth int) int {
	moves := naiveLegal(b, races, s)
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, m := range moves {
		n += naivePerft(m, races, s.Other(), depth-1)
	}
	return n
}

// The engine's move counts agree with the naive generator's on the
// openings and on boards where the Troll, the Shaman, the jumpers and the
// elves' several Kings matter.
func TestPerftMatchesANaiveCount(t *testing.T) {
	cases := []struct {
		name  string
		pos   Position
		depth int
	}{
		{"opening 1", parseOpening(t, 0), 2},
		{"opening 2", parseOpening(t, 1), 2},
		{"opening 3", parseOpening(t, 2), 2},
		{"Troll and Shaman against a Howitzer", board(t, "orcs:dwarfs", First, "Ke1", "Td4", "Se5", "Gc3", "ke8", "he6", "wd7"), 2},
		{"a Mage and a Runemaster jump", board(t, "humans:dwarfs", First, "Ke1", "Me3", "Fe2", "ke9", "rd7", "we8"), 2},
		{"an explosion may take two elf Kings but not the last", board(t, "orcs:elves", First, "Ka1", "Se5", "ke6", "kd4", "ki9", "rf7"), 2},
		{"the second side's Troll", board(t, "dwarfs:orcs", Second, "Ka1", "Hb1", "ke9", "te6", "oe7"), 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			races := [2]*Race{c.pos.Race(First), c.pos.Race(Second)}
			for d := 1; d <= c.depth; d++ {
				got, want := Perft(c.pos, d), naivePerft(naiveOf(c.pos), races, c.pos.ToMove(), d)
				if got != want {
					t.Errorf("%s depth %d: Perft got %d, the naive count %d", c.pos, d, got, want)
				}
			}
		})
	}
}

func parseOpening(t testing.TB, i int) Position {
	t.Helper()
	p, err := ParsePosition(Openings()[i], DefaultTable())
	if err != nil {
		t.Fatal(err)
	}
	return p
}
