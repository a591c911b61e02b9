package battle9

import (
	"errors"
	"slices"
	"testing"
)

// Tests of the source's sections "The Battle" and "The Units"
// (../shared/seeds/003_cde703ca0257933f.txt), one test per sentence,
// against the default unit table.

// "The players alternately move a unit according to its moving abilities
// to another square."
func TestSourceAlternateMoves(t *testing.T) {
	g := NewGame(board(t, "dwarfs:orcs", First, "Ke1", "We2", "ke9", "oe8"))
	if err := g.Play(mustMove(t, "e2-e3")); err != nil {
		t.Fatal(err)
	}
	if got := g.Position().ToMove(); got != Second {
		t.Errorf("after the first player's move: got %s to move, want second", got)
	}
	if err := g.Play(mustMove(t, "e3-e4")); !errors.Is(err, ErrNotYourUnit) {
		t.Errorf("the first player again: got %v, want ErrNotYourUnit", err)
	}
	if err := g.Play(mustMove(t, "e8-e6")); !errors.Is(err, ErrNotAMove) {
		t.Errorf("an Orc two squares: got %v, want ErrNotAMove (not its moving ability)", err)
	}
	if err := g.Play(mustMove(t, "e5-e4")); !errors.Is(err, ErrNoUnit) {
		t.Errorf("from an empty square: got %v, want ErrNoUnit", err)
	}
	if err := g.Play(mustMove(t, "e8-e7")); err != nil {
		t.Fatal(err)
	}
	if got, want := len(g.Moves()), 2; got != want {
		t.Errorf("history: got %d moves, want %d", got, want)
	}
	if got := g.Positions()[0].String(); got != "dwarfs:orcs 4k4/4o4/9/9/9/9/9/4W4/4K4 1" {
		t.Errorf("history keeps the start: got %q", got)
	}
	if !g.Undo() || g.Position().ToMove() != Second {
		t.Errorf("undo: got %s to move, want second", g.Position().ToMove())
	}
}

// "If the square is occupied by an opponent unit, this unit is captured
// and taken off the board."
func TestSourceCapture(t *testing.T) {
	p := board(t, "dwarfs:orcs", First, "Ke1", "He2", "ke9", "oe7", "oa2")
	for _, c := range []struct{ move, notation string }{{"e2-e7", "e2xe7"}, {"e2-a2", "e2xa2"}} {
		q, err := p.Apply(mustMove(t, c.move))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := q.Count(Second), p.Count(Second)-1; got != want {
			t.Errorf("%s: got %d orc units, want %d", c.move, got, want)
		}
		pc, _ := q.At(mustMove(t, c.move).To)
		if pc.Side != First || pc.Unit.Name != "Howitzer" {
			t.Errorf("%s: got %v on the square, want the Howitzer", c.move, pc)
		}
		if got := p.Notation(mustMove(t, c.move)); got != c.notation {
			t.Errorf("notation: got %q, want %q", got, c.notation)
		}
	}
}

// "A player is not allowed to move in such a way that his King
// (concerning elves: the last King) can be captured."
func TestSourceKingNotCapturable(t *testing.T) {
	t.Run("a King may not step into an attack", func(t *testing.T) {
		p := board(t, "dwarfs:dwarfs", First, "Ke1", "ki9", "hd9")
		if got, want := destinations(p, "e1"), sqs("e2 f1 f2"); !slices.Equal(got, want) {
			t.Errorf("King e1: got %v, want %v", got, want)
		}
		if _, err := p.Apply(mustMove(t, "e1-d2")); !errors.Is(err, ErrKingCapturable) {
			t.Errorf("e1-d2: got %v, want ErrKingCapturable", err)
		}
	})
	t.Run("a unit shielding its King may not leave the line", func(t *testing.T) {
		p := board(t, "dwarfs:dwarfs", First, "Ke1", "We2", "ki9", "he9")
		if got, want := destinations(p, "e2"), sqs("e3"); !slices.Equal(got, want) {
			t.Errorf("Warrior e2: got %v, want %v", got, want)
		}
	})
	t.Run("an attacked King must be saved", func(t *testing.T) {
		p := board(t, "dwarfs:dwarfs", First, "Ke1", "Wa2", "Hb3", "ki9", "he9")
		for _, m := range p.LegalMoves() {
			if m.From.String() == "a2" {
				t.Errorf("got %s, which leaves the King attacked", m)
			}
		}
		if got, want := destinations(p, "b3"), sqs("e3"); !slices.Equal(got, want) {
			t.Errorf("Howitzer b3 must block on e3: got %v, want %v", got, want)
		}
	})
	t.Run("elves with two Kings may leave one capturable", func(t *testing.T) {
		p := board(t, "elves:dwarfs", First, "Ka1", "Ki1", "Se4", "ke9", "ha9")
		if p.KingCapturable(First) {
			t.Errorf("two elf Kings, one attacked: got capturable, want not (it is not the last)")
		}
		if _, err := p.Apply(mustMove(t, "e4-e5")); err != nil {
			t.Errorf("a Scout's move leaving a King attacked: got %v, want legal", err)
		}
	})
	t.Run("the elves' last King may not be left capturable", func(t *testing.T) {
		p := board(t, "elves:dwarfs", First, "Ka1", "Se4", "ke9", "ha9")
		if _, err := p.Apply(mustMove(t, "e4-e5")); !errors.Is(err, ErrKingCapturable) {
			t.Errorf("last elf King attacked: got %v, want ErrKingCapturable", err)
		}
	})
	t.Run("an explosion covering every elf King threatens them", func(t *testing.T) {
		p := board(t, "orcs:elves", Second, "Ka1", "Se5", "kd6", "kf6", "ki9")
		// The third elf King is on i9; only two are covered.
		if p.KingCapturable(Second) {
			t.Errorf("two of three elf Kings in the 5x5: got capturable, want not")
		}
		p = board(t, "orcs:elves", Second, "Ka1", "Se5", "kd6", "kf6")
		if !p.KingCapturable(Second) {
			t.Errorf("both elf Kings in the 5x5: got not capturable, want capturable")
		}
		for _, m := range p.LegalMoves() {
			if q := p.play(m); q.KingCapturable(Second) {
				t.Errorf("legal move %s leaves both Kings in the explosion", m)
			}
		}
	})
}

// "If this is not possible the player is in checkmate and loses."
func TestSourceCheckmate(t *testing.T) {
	p := board(t, "dwarfs:orcs", Second, "Ke1", "Ha1", "Hb1", "ka9")
	if got := p.Status(); got.Outcome != Checkmate || got.Winner != First {
		t.Errorf("got %v, want checkmate won by the first player", got)
	}
	if _, err := p.Apply(mustMove(t, "a9-a8")); !errors.Is(err, ErrGameOver) {
		t.Errorf("a move after checkmate: got %v, want ErrGameOver", err)
	}
	if got := Perft(p, 1); got != 0 {
		t.Errorf("moves in checkmate: got %d, want 0", got)
	}
}

// "You are not allowed to capture one of your own units (exception:
// special move of Shaman (orcs) - whereby it is not allowed to destroy the
// own King)."
func TestSourceNoCaptureOfOwnUnits(t *testing.T) {
	p := board(t, "orcs:dwarfs", First, "Ka1", "Se5", "Ge6", "wc3", "we8", "ki9")
	if _, err := p.Apply(mustMove(t, "e5-e6")); !errors.Is(err, ErrOwnUnit) {
		t.Errorf("Shaman onto its own Goblin: got %v, want ErrOwnUnit", err)
	}
	q, err := p.Apply(mustMove(t, "e5*"))
	if err != nil {
		t.Fatalf("the Shaman's explosion: %v", err)
	}
	for sq, want := range map[string]bool{"e5": false, "e6": false, "c3": false, "e8": true, "a1": true} {
		if _, got := q.At(mustSquare(t, sq)); got != want {
			t.Errorf("after the explosion, a unit on %s: got %v, want %v", sq, got, want)
		}
	}
	if got := p.Removed(mustMove(t, "e5*")); len(got) != 3 {
		t.Errorf("removed by the explosion: got %v, want e5, e6 (own Goblin) and c3", got)
	}
	withKing := board(t, "orcs:dwarfs", First, "Kd4", "Se5", "ki9")
	if _, err := withKing.Apply(mustMove(t, "e5*")); !errors.Is(err, ErrOwnKing) {
		t.Errorf("exploding next to the own King: got %v, want ErrOwnKing", err)
	}
	if got := destinations(withKing, "e5"); slices.Contains(got, "e5*") {
		t.Errorf("Shaman next to its King: got %v, want no explosion listed", got)
	}
}

// "You are not allowed to jump over other units (Exception: special moves
// of Mage (humans) and Runemaster (dwarfs))."
func TestSourceNoJumping(t *testing.T) {
	p := board(t, "dwarfs:orcs", First, "Ke1", "Ha1", "Wa3", "ki9", "oc1")
	if _, err := p.Apply(mustMove(t, "a1-a4")); !errors.Is(err, ErrBlocked) {
		t.Errorf("Howitzer over its own Warrior: got %v, want ErrBlocked", err)
	}
	if _, err := p.Apply(mustMove(t, "a1-d1")); !errors.Is(err, ErrBlocked) {
		t.Errorf("Howitzer over an Orc: got %v, want ErrBlocked", err)
	}
	ring := []string{"Kc1", "ki9"}
	for _, n := range []string{"d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"} {
		ring = append(ring, "F"+n)
	}
	mage := board(t, "humans:orcs", First, append(ring, "Me5")...)
	if got, want := destinations(mage, "e5"), sqs("c4 c6 d3 d7 f3 f7 g4 g6"); !slices.Equal(got, want) {
		t.Errorf("Mage ringed by its Footmen: got %v, want %v", got, want)
	}
	for i := 2; i < len(ring); i++ {
		ring[i] = "W" + ring[i][1:]
	}
	rune := board(t, "dwarfs:orcs", First, append(ring, "Re5")...)
	if got, want := destinations(rune, "e5"), sqs("c3 c5 c7 e3 e7 g3 g5 g7"); !slices.Equal(got, want) {
		t.Errorf("Runemaster ringed by its Warriors: got %v, want %v", got, want)
	}
	for _, r := range DefaultTable().Races {
		for _, u := range r.Units {
			jumps := len(u.leaps) > 0
			if want := u.Name == "Mage" || u.Name == "Runemaster"; jumps != want {
				t.Errorf("%s %s: got jumps %v, want %v", r.Name, u.Name, jumps, want)
			}
		}
	}
}

// "You may not pass your turn. If you have no legal move, you lose."
func TestSourceNoPassing(t *testing.T) {
	p := board(t, "dwarfs:orcs", First, "Ke1", "ke9")
	if _, err := p.Apply(mustMove(t, "e1-e1")); !errors.Is(err, ErrPass) {
		t.Errorf("e1-e1: got %v, want ErrPass", err)
	}
	if _, err := ParseMove("pass"); err == nil {
		t.Errorf("a pass: got a move, want none")
	}
	stale := board(t, "dwarfs:orcs", Second, "Ke1", "Hb1", "Hi8", "ka9")
	if stale.KingCapturable(Second) {
		t.Fatalf("stalemate fixture: the King is attacked")
	}
	if got := stale.Status(); got.Outcome != NoLegalMove || got.Winner != First {
		t.Errorf("no legal move: got %v, want a loss for the second player", got)
	}
}

// "Goblins in the last row or other units with no remaining moves stay
// there until they are captured."
func TestSourceStuckUnits(t *testing.T) {
	p := board(t, "orcs:dwarfs", First, "Ka1", "Ge9", "kf7")
	if got := destinations(p, "e9"); len(got) != 0 {
		t.Errorf("first side's Goblin on row 9: got moves %v, want none", got)
	}
	if got := p.Status(); got.Over() {
		t.Errorf("a stuck Goblin but a free King: got %v, want ongoing", got)
	}
	q, err := p.Apply(mustMove(t, "a1-a2"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := q.At(mustSquare(t, "e9")); !ok {
		t.Errorf("the stuck Goblin left e9")
	}
	q, _ = q.Apply(mustMove(t, "f7-f8"))
	q, _ = q.Apply(mustMove(t, "a2-a3"))
	q, err = q.Apply(mustMove(t, "f8-e9"))
	if err != nil {
		t.Fatalf("capturing the stuck Goblin: %v", err)
	}
	if pc, _ := q.At(mustSquare(t, "e9")); pc.Side != Second {
		t.Errorf("e9 after the capture: got %v, want the dwarf King", pc)
	}
	second := board(t, "dwarfs:orcs", Second, "Ka9", "ge1", "ki5")
	if got := destinations(second, "e1"); len(got) != 0 {
		t.Errorf("second side's Goblin on row 1: got %v, want none", got)
	}
	boxed := board(t, "orcs:dwarfs", First, "Ka1", "Ge8", "Od9", "Oe9", "Of9", "ki5")
	if got := destinations(boxed, "e8"); len(got) != 0 {
		t.Errorf("Goblin boxed in by its own units: got %v, want none", got)
	}
}

// "About the graphics: A dot means that the unit can move one square in
// this direction. An arrow means that the unit can move any number of
// squares in this direction (as long as no other unit is inbetween)."
func TestSourceDotsAndArrows(t *testing.T) {
	p := board(t, "dwarfs:orcs", First, "Ka1", "We5", "Hc1", "Tg1", "ki9", "oc6")
	cases := []struct{ from, want string }{
		{"e5", "d5 d6 e6 f5 f6"},             // Warrior: dots F, FL, FR, L, R
		{"c1", "b1 c2 c3 c4 c5 c6 d1 e1 f1"}, // Howitzer: arrows, the file up to the Orc on c6
		{"g1", "f2 e3 d4 c5 b6 a7 h2 i3"},    // Trapper: arrows on the diagonals
	}
	for _, c := range cases {
		if got, want := destinations(p, c.from), sqs(c.want); !slices.Equal(got, want) {
			t.Errorf("unit on %s: got %v, want %v", c.from, got, want)
		}
	}
	if _, err := p.Apply(mustMove(t, "e5-e7")); !errors.Is(err, ErrNotAMove) {
		t.Errorf("a dot two squares: got %v, want ErrNotAMove", err)
	}
}

// "About the Troll: A troll moves like an orc, but may make another move
// if it hasn't captured on its first move."
func TestSourceTroll(t *testing.T) {
	r, _ := DefaultTable().Race("orcs")
	orc, _ := r.Unit("Orc")
	troll, _ := r.Unit("Troll")
	if !slices.Equal(orc.steps, troll.steps) || len(troll.slides)+len(troll.leaps) != 0 {
		t.Errorf("Troll moves: got %v, want the Orc's %v", troll.steps, orc.steps)
	}
	p := board(t, "orcs:dwarfs", First, "Ka1", "Te5", "we6", "wc6", "ki9")
	cases := []struct {
		move string
		want error
	}{
		{"e5-d5-c5", nil},             // two moves, the first captured nothing
		{"e5-d5xc6", nil},             // the second move may capture
		{"e5xe6", nil},                // a capture alone
		{"e5xe6-e7", ErrNoSecondMove}, // no second move after a capture
		{"e5-d5-e5", ErrPass},         // back where it started: a pass
		{"e5-d5-d3", ErrNotAMove},     // the second move is an Orc's move too
		{"e5-c5", nil},                // written as one move, played as two
		{"e5-e3", ErrNotAMove},        // no two Orc moves lead there
	}
	for _, c := range cases {
		_, err := p.Apply(mustMove(t, c.move))
		if (c.want == nil && err != nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: got %v, want %v", c.move, err, c.want)
		}
	}
	// A Troll that must capture on its way cannot go on to the King: the
	// three two-move routes from e5 to e7 all pass over d6, e6 or f6.
	shielded := board(t, "orcs:dwarfs", Second, "Ka1", "Te5", "wd6", "we6", "wf6", "ke7")
	if shielded.KingCapturable(Second) {
		t.Errorf("King e7 behind three units: got capturable by the Troll's two moves, want not")
	}
	if open := shielded.Remove(mustSquare(t, "e6")); !open.KingCapturable(Second) {
		t.Errorf("King e7 with e6 open: got not capturable, want capturable by e5-e6-e7")
	}
	orcOnly := board(t, "orcs:dwarfs", First, "Ka1", "Oe5", "ki9")
	if _, err := orcOnly.Apply(mustMove(t, "e5-d5-c5")); !errors.Is(err, ErrNotAMove) {
		t.Errorf("an Orc's two moves: got %v, want ErrNotAMove", err)
	}
}

// "About the Shaman: The explosion covers a 5x5 area."
func TestSourceShaman5x5(t *testing.T) {
	var pieces []string
	for f := 0; f < Size; f++ {
		for r := 0; r < Size; r++ {
			sq, _ := At(f, r)
			if sq.String() != "e5" && sq.String() != "a1" && sq.String() != "i9" {
				pieces = append(pieces, "w"+sq.String())
			}
		}
	}
	p := board(t, "orcs:dwarfs", First, append(pieces, "Ka1", "Se5", "ki9")...)
	if got := len(p.Removed(mustMove(t, "e5*"))); got != 25 {
		t.Errorf("explosion in the centre of a full board: got %d units removed, want 25", got)
	}
	// The corner's area is a7-c9: 8 dwarf Warriors and the Shaman.
	corner := board(t, "orcs:dwarfs", First, append(pieces, "Ka1", "Sa9", "ki9")...)
	if got := len(corner.Removed(mustMove(t, "a9*"))); got != 9 {
		t.Errorf("explosion in the corner a9: got %d units removed, want 9", got)
	}
	for _, c := range []struct {
		own, king string
		want      bool
	}{
		{"Ka1", "kg7", true},
		{"Ka1", "kc3", true},
		{"Ka1", "kh8", false},
		{"Ka1", "ke8", false},
		{"Kd4", "kg7", false}, // the Shaman may not explode next to its own King
	} {
		q := board(t, "orcs:dwarfs", Second, c.own, "Se5", c.king)
		if got := q.KingCapturable(Second); got != c.want {
			t.Errorf("dwarf King %s near a Shaman on e5 (orc King %s): capturable %v, want %v", c.king[1:], c.own[1:], got, c.want)
		}
	}
}
