package battle9

import (
	"fmt"
	"strings"
)

// MoveKind tells the kinds of move apart.
type MoveKind uint8

const (
	// Step moves a unit along one dot, arrow or jump, capturing an
	// opponent's unit on the destination.
	Step MoveKind = iota
	// Double is the Troll's move: a first move that captures nothing, to
	// Via, then a second move from Via to To.
	Double
	// Explosion is the Shaman's special move: every unit in the area
	// around From (5x5 for the Shaman), the Shaman included, is destroyed.
	Explosion
)

// Move is one turn of a player. To equals From for an explosion; Via is
// NoSquare except for a Double.
type Move struct {
	Kind     MoveKind
	From, To Square
	Via      Square
}

// StepMove is the move from one square to another.
func StepMove(from, to Square) Move { return Move{Kind: Step, From: from, To: to, Via: NoSquare} }

// DoubleMove is the Troll's two moves, through via.
func DoubleMove(from, via, to Square) Move { return Move{Kind: Double, From: from, Via: via, To: to} }

// ExplosionMove is the explosion of the unit on sq.
func ExplosionMove(sq Square) Move { return Move{Kind: Explosion, From: sq, To: sq, Via: NoSquare} }

// String is the move's text form: "e2-e4", "e2-e3-e4" (a Troll's two
// moves), "e5*" (an explosion). Position.Notation marks captures with x.
func (m Move) String() string {
	switch m.Kind {
	case Double:
		return m.From.String() + "-" + m.Via.String() + "-" + m.To.String()
	case Explosion:
		return m.From.String() + "*"
	}
	return m.From.String() + "-" + m.To.String()
}

// ParseMove reads a move written as by Move.String or Position.Notation:
// '-' and 'x' both separate squares (a capture marker is not required).
func ParseMove(text string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if rest, ok := strings.CutSuffix(t, "*"); ok {
		sq, err := ParseSquare(rest)
		if err != nil {
			return Move{}, fmt.Errorf("move %q: %w", text, err)
		}
		return ExplosionMove(sq), nil
	}
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == 'x' })
	if len(parts) < 2 || len(parts) > 3 || strings.Count(t, "-")+strings.Count(t, "x") != len(parts)-1 {
		return Move{}, fmt.Errorf("move %q: want FROM-TO (e2-e4), FROM-VIA-TO for a Troll (e2-e3-e4) or SQUARE* for an explosion (e5*)", text)
	}
	sqs := make([]Square, len(parts))
	for i, s := range parts {
		sq, err := ParseSquare(s)
		if err != nil {
			return Move{}, fmt.Errorf("move %q: %w", text, err)
		}
		sqs[i] = sq
	}
	if len(sqs) == 3 {
		return DoubleMove(sqs[0], sqs[1], sqs[2]), nil
	}
	return StepMove(sqs[0], sqs[1]), nil
}

// Notation is the move's text form in p, with x before a square where
// an opponent's unit is captured.
func (p Position) Notation(m Move) string {
	sep := func(sq Square) string {
		if c := p.board[sq]; c.full && m.From.Valid() && c.side != p.board[m.From].side {
			return "x"
		}
		return "-"
	}
	switch m.Kind {
	case Double:
		return m.From.String() + "-" + m.Via.String() + sep(m.To) + m.To.String()
	case Explosion:
		return m.String()
	}
	return m.From.String() + sep(m.To) + m.To.String()
}
