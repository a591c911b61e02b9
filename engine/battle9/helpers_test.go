package battle9

import (
	"slices"
	"strings"
	"testing"
)

// board builds a position of the default table: races "first:second",
// the side to move, and pieces like "Ke1" (upper case: first side) or
// "ke9" (lower case: second side).
func board(t testing.TB, races string, toMove Side, pieces ...string) Position {
	t.Helper()
	rs := strings.Split(races, ":")
	p, err := NewPosition(DefaultTable(), rs[0], rs[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range pieces {
		side := First
		if pc[0] >= 'a' && pc[0] <= 'z' {
			side = Second
		}
		i, ok := p.races[side].byLetter(pc[0])
		if !ok {
			t.Fatalf("piece %q: no such letter among the %s", pc, p.races[side].Name)
		}
		sq := mustSquare(t, pc[1:])
		if p, err = p.Put(sq, side, p.races[side].Units[i].Name); err != nil {
			t.Fatal(err)
		}
	}
	return p.WithToMove(toMove)
}

func mustSquare(t testing.TB, name string) Square {
	t.Helper()
	sq, err := ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

func mustMove(t testing.TB, text string) Move {
	t.Helper()
	m, err := ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// destinations lists, sorted, the squares the legal moves of the unit on
// from end on (an explosion as "from*").
func destinations(p Position, from string) []string {
	var out []string
	for _, m := range p.LegalMoves() {
		if m.From.String() != from {
			continue
		}
		if m.Kind == Explosion {
			out = append(out, m.String())
		} else {
			out = append(out, m.To.String())
		}
	}
	slices.Sort(out)
	return out
}

func sqs(names string) []string {
	out := strings.Fields(names)
	slices.Sort(out)
	return out
}
