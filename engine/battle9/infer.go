package battle9

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Occupant is what a board reader can tell of a square: empty, or a unit
// of one side (not which unit).
type Occupant uint8

const (
	Empty Occupant = iota
	FirstUnit
	SecondUnit
)

// Occupancy is a board as a camera sees it, indexed by Square.
type Occupancy [NumSquares]Occupant

// Occupancy is what a board reader would see of p.
func (p Position) Occupancy() Occupancy {
	var o Occupancy
	for sq, c := range p.board {
		if c.full {
			o[sq] = FirstUnit + Occupant(c.side)
		}
	}
	return o
}

// String is the occupancy's text form: rows 9 to 1 separated by '/', one
// character a square: '.' empty, '1' a first-side unit, '2' a second-side one.
func (o Occupancy) String() string {
	var b strings.Builder
	for r := Size - 1; r >= 0; r-- {
		for f := 0; f < Size; f++ {
			b.WriteByte(".12"[o[r*Size+f]])
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// ParseOccupancy reads the text form written by Occupancy.String; rows
// may also be separated by newlines, and a digit stands for a run of
// empty squares as in a position ("9" is an empty row).
func ParseOccupancy(text string) (Occupancy, error) {
	var o Occupancy
	rows := strings.FieldsFunc(text, func(r rune) bool { return r == '/' || r == '\n' || r == '\r' || r == ' ' })
	if len(rows) != Size {
		return o, fmt.Errorf("occupancy: %d rows, want %d (rows 9 to 1)", len(rows), Size)
	}
	for i, row := range rows {
		r := Size - 1 - i
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '3' && c <= '9' {
				f += int(c - '0')
				continue
			}
			k := strings.IndexByte(".12", c)
			if k < 0 {
				return o, fmt.Errorf("occupancy: row %d: character %q: want . (empty), 1 or 2 (a unit of that side), or 3-9 (empty squares)", r+1, c)
			}
			if f < Size {
				o[r*Size+f] = Occupant(k)
			}
			f++
		}
		if f != Size {
			return o, fmt.Errorf("occupancy: row %d %q: covers %d squares, want %d", r+1, row, f, Size)
		}
	}
	return o, nil
}

// Diff lists the squares where o and other differ.
func (o Occupancy) Diff(other Occupancy) []Square {
	var out []Square
	for sq := range o {
		if o[sq] != other[sq] {
			out = append(out, Square(sq))
		}
	}
	return out
}

// Reasons a change of the board cannot be taken as a move.
var (
	ErrNoChange      = errors.New("no move seen: the board did not change")
	ErrIllegalChange = errors.New("the change is not a legal move")
	ErrAmbiguous     = errors.New("several legal moves explain the change")
)

// ChangeError is a board change that is not exactly one legal move: the
// squares that changed and the legal moves nearest to the change (fewest
// squares differing from what was seen), for the players to be asked.
type ChangeError struct {
	Reason     error // ErrNoChange, ErrIllegalChange or ErrAmbiguous
	Changed    []Square
	Candidates []Candidate
}

func (e *ChangeError) Error() string {
	var b strings.Builder
	b.WriteString(e.Reason.Error())
	if len(e.Changed) > 0 {
		fmt.Fprintf(&b, " (changed: %s)", squareList(e.Changed))
	}
	if len(e.Candidates) > 0 {
		var ms []string
		for _, c := range e.Candidates {
			ms = append(ms, c.Move.String())
		}
		fmt.Fprintf(&b, "; nearest legal moves: %s (%d squares off)", strings.Join(ms, ", "), e.Candidates[0].Mismatch)
	}
	return b.String()
}

func (e *ChangeError) Unwrap() error { return e.Reason }

// Candidate is a legal move and how many squares of the observed board
// differ from the board it would leave.
type Candidate struct {
	Move     Move
	Mismatch int
}

// RankMoves scores every legal move of before against an observed board,
// best first (ties in move generation order). A board reader that is not
// sure of a square can use the ranking as a prior.
func RankMoves(before Position, after Occupancy) []Candidate {
	var out []Candidate
	for _, m := range before.LegalMoves() {
		out = append(out, Candidate{m, len(before.play(m).Occupancy().Diff(after))})
	}
	slices.SortStableFunc(out, func(a, b Candidate) int { return a.Mismatch - b.Mismatch })
	return out
}

// InferMove finds the legal move of before's side to move that turns
// before's board into after's, comparing only which side stands on each
// square (what a camera sees). A change that no legal move explains is
// an error (a *ChangeError wrapping ErrIllegalChange), not a guess.
func InferMove(before, after Position) (Move, error) {
	return InferFromOccupancy(before, after.Occupancy())
}

// InferFromOccupancy is InferMove for a board reader's output.
func InferFromOccupancy(before Position, after Occupancy) (Move, error) {
	changed := before.Occupancy().Diff(after)
	if len(changed) == 0 {
		return Move{}, &ChangeError{Reason: ErrNoChange}
	}
	ranked := RankMoves(before, after)
	best := 0
	for best < len(ranked) && ranked[best].Mismatch == ranked[0].Mismatch {
		best++
	}
	switch {
	case len(ranked) == 0 || ranked[0].Mismatch > 0:
		return Move{}, &ChangeError{Reason: ErrIllegalChange, Changed: changed, Candidates: ranked[:min(best, 3)]}
	case best > 1 && !sameOutcome(before, ranked[:best]):
		return Move{}, &ChangeError{Reason: ErrAmbiguous, Changed: changed, Candidates: ranked[:best]}
	}
	return ranked[0].Move, nil
}

// sameOutcome says whether the moves all leave the same position (two
// Shamans side by side exploding take off the same units either way).
func sameOutcome(p Position, cs []Candidate) bool {
	first := p.play(cs[0].Move)
	for _, c := range cs[1:] {
		if !p.play(c.Move).Equal(first) {
			return false
		}
	}
	return true
}

func squareList(sqs []Square) string {
	s := make([]string, len(sqs))
	for i, sq := range sqs {
		s[i] = sq.String()
	}
	return strings.Join(s, " ")
}
