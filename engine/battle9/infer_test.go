package battle9

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestInferMove(t *testing.T) {
	p := board(t, "orcs:dwarfs", First, "Ka1", "Te5", "Sd2", "Gb3", "we6", "wc6", "ki9")
	for _, text := range []string{"e5-d5-c5", "e5xe6", "e5-d5xc6", "d2*", "a1-b1", "e5-f6"} {
		m := mustMove(t, text)
		q, err := p.Apply(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := InferMove(p, q)
		if err != nil {
			t.Errorf("%s: got %v", text, err)
			continue
		}
		if r, _ := p.Apply(got); !r.Equal(q) {
			t.Errorf("%s: inferred %s, which leaves another board", text, got)
		}
	}
}

// Two Shamans side by side: either explosion takes off both and nothing
// else, so the board cannot tell them apart, and need not.
func TestInferTwoExplosionsWithTheSameOutcome(t *testing.T) {
	p := board(t, "orcs:dwarfs", First, "Ka1", "Se5", "Se6", "ki9")
	q, _ := p.Apply(mustMove(t, "e5*"))
	m, err := InferMove(p, q)
	if err != nil || m.Kind != Explosion {
		t.Fatalf("got %v (%v), want an explosion", m, err)
	}
	if r, _ := p.Apply(m); !r.Equal(q) {
		t.Errorf("inferred %s leaves another position", m)
	}
}

func TestDotAndArrowTheSameWayListOnce(t *testing.T) {
	tbl, err := ParseTable([]byte(strings.Replace(miniTable, `"dots": ["F"]}`, `"dots": ["F"], "arrows": ["F"]}`, 1)), "t")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := NewPosition(tbl, "r", "r")
	p, _ = p.Put(mustSquare(t, "a1"), First, "King")
	p, _ = p.Put(mustSquare(t, "i9"), Second, "King")
	p, _ = p.Put(mustSquare(t, "e5"), First, "Pawn")
	if got := destinations(p, "e5"); !slices.Equal(got, sqs("e6 e7 e8 e9")) {
		t.Errorf("Pawn with a dot and an arrow forward: got %v, want e6-e9 once each", got)
	}
}

func TestInferMoveFlagsIllegalChanges(t *testing.T) {
	p := board(t, "dwarfs:orcs", First, "Ke1", "He2", "ke9", "oe7")
	cases := []struct {
		name   string
		change func(Position) Position
		want   error
	}{
		{"nothing moved", func(q Position) Position { return q }, ErrNoChange},
		{"a Howitzer jumped over the Orc", func(q Position) Position {
			return q.moveUnit(mustSquare(t, "e2"), mustSquare(t, "e8"))
		}, ErrIllegalChange},
		{"the King walked into the Orc's reach", func(q Position) Position {
			q, _ = q.Put(mustSquare(t, "e6"), Second, "Orc")
			return q
		}, ErrIllegalChange},
		{"a unit vanished", func(q Position) Position { return q.Remove(mustSquare(t, "e7")) }, ErrIllegalChange},
		{"the opponent moved", func(q Position) Position {
			return q.moveUnit(mustSquare(t, "e7"), mustSquare(t, "e6"))
		}, ErrIllegalChange},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := InferMove(p, c.change(p))
			if !errors.Is(err, c.want) {
				t.Errorf("got %v, want %v", err, c.want)
			}
			var ce *ChangeError
			if !errors.As(err, &ce) {
				t.Fatalf("got %T, want a *ChangeError", err)
			}
			if c.want == ErrIllegalChange && len(ce.Candidates) == 0 {
				t.Errorf("got no nearest legal moves to ask the players about")
			}
		})
	}
}

func TestInferNearestMoveIsOffered(t *testing.T) {
	// The camera missed the Howitzer on e5 (seen empty): the nearest legal
	// move, one square off, is e2-e5.
	p := board(t, "dwarfs:orcs", First, "Ke1", "He2", "ke9")
	o := p.Occupancy()
	o[mustSquare(t, "e2")] = Empty
	_, err := InferFromOccupancy(p, o)
	var ce *ChangeError
	if !errors.As(err, &ce) || !errors.Is(err, ErrIllegalChange) {
		t.Fatalf("got %v, want an illegal change", err)
	}
	for _, c := range ce.Candidates {
		if c.Mismatch != 1 || c.Move.From != mustSquare(t, "e2") {
			t.Errorf("candidate %v: want a move of the Howitzer one square off", c)
		}
	}
}

func TestOccupancyText(t *testing.T) {
	p := board(t, "dwarfs:orcs", First, "Ke1", "He2", "ke9", "oe7")
	text := p.Occupancy().String()
	if want := "....2..../........./....2..../........./........./........./........./....1..../....1...."; text != want {
		t.Errorf("occupancy: got %q, want %q", text, want)
	}
	o, err := ParseOccupancy(text)
	if err != nil || o != p.Occupancy() {
		t.Errorf("round trip of %q: got %v", text, err)
	}
	for _, bad := range []string{"", "........./", "....3..../........./........./........./........./........./........./........./........."} {
		if _, err := ParseOccupancy(bad); err == nil {
			t.Errorf("ParseOccupancy(%q): got no error", bad)
		}
	}
}

func FuzzParseOccupancy(f *testing.F) {
	f.Add("....2..../........./....2..../........./........./........./........./....1..../....1....")
	f.Add("1\n2\n.")
	f.Fuzz(func(t *testing.T, text string) {
		o, err := ParseOccupancy(text)
		if err != nil {
			return
		}
		if back, err := ParseOccupancy(o.String()); err != nil || back != o {
			t.Fatalf("%q: round trip failed: %v", text, err)
		}
	})
}
