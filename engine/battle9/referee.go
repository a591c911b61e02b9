package battle9

import (
	"errors"
	"fmt"
)

// Reasons a move is refused; test with errors.Is.
var (
	ErrGameOver       = errors.New("the game is over")
	ErrNoUnit         = errors.New("no unit there")
	ErrNotYourUnit    = errors.New("not your unit")
	ErrPass           = errors.New("you may not pass your turn")
	ErrOwnUnit        = errors.New("you may not capture your own unit")
	ErrBlocked        = errors.New("you may not jump over other units")
	ErrNotAMove       = errors.New("the unit cannot move so")
	ErrNoSecondMove   = errors.New("no second move after a capture")
	ErrOwnKing        = errors.New("the explosion may not destroy your own King")
	ErrKingCapturable = errors.New("your King could be captured")
)

// Outcome is how a position stands.
type Outcome uint8

const (
	// Ongoing: the side to move has a legal move.
	Ongoing Outcome = iota
	// Checkmate: the side to move has no legal move and its King can be
	// captured; it loses.
	Checkmate
	// NoLegalMove: the side to move has no legal move though its King is
	// not attacked; it loses too ("If you have no legal move, you lose").
	NoLegalMove
	// NoKing: a side has no King left (elves whose Kings were all
	// destroyed by one explosion); it loses.
	NoKing
)

func (o Outcome) String() string {
	return [...]string{"ongoing", "checkmate", "no legal move", "no King left"}[o]
}

// Status is the outcome of a position and, when the game is over, the
// winner.
type Status struct {
	Outcome Outcome
	Winner  Side // meaningful when Outcome != Ongoing
}

// Over says whether the game has ended.
func (s Status) Over() bool { return s.Outcome != Ongoing }

func (s Status) String() string {
	if !s.Over() {
		return "ongoing"
	}
	return fmt.Sprintf("%s: the %s player wins", s.Outcome, s.Winner)
}

// Status says whether the side to move can play on, or who has won.
func (p Position) Status() Status {
	for _, s := range []Side{p.toMove, p.toMove.Other()} {
		if len(p.Kings(s)) == 0 {
			return Status{Outcome: NoKing, Winner: s.Other()}
		}
	}
	if p.hasLegalMove() {
		return Status{Outcome: Ongoing}
	}
	if p.KingCapturable(p.toMove) {
		return Status{Outcome: Checkmate, Winner: p.toMove.Other()}
	}
	return Status{Outcome: NoLegalMove, Winner: p.toMove.Other()}
}

// Apply plays m and returns the new position, or an error saying why m
// is not legal (wrapping one of the Err reasons).
func (p Position) Apply(m Move) (Position, error) {
	legal, err := p.Resolve(m)
	if err != nil {
		return p, err
	}
	return p.play(legal), nil
}

// Resolve finds the legal move meant by m, or says why there is none. A
// Step from one square to another also accepts a Troll's two moves to
// the same square (the outcome is the same); a Double must follow its
// own route.
func (p Position) Resolve(m Move) (Move, error) {
	route, err := p.resolve(m)
	if err != nil {
		if st := p.Status(); st.Over() {
			return Move{}, fmt.Errorf("%v: %w", st, ErrGameOver)
		}
	}
	return route, err
}

func (p Position) resolve(m Move) (Move, error) {
	if len(p.Kings(First)) == 0 || len(p.Kings(Second)) == 0 {
		return Move{}, ErrGameOver
	}
	if err := p.pseudoReason(m); err != nil {
		return Move{}, fmt.Errorf("%s: %w", m, err)
	}
	route := m // a Double through another route than the listed one
	for _, l := range p.pieceMoves(m.From, nil) {
		if l == m || (m.Kind == Step && l.Kind == Double && l.From == m.From && l.To == m.To) {
			route = l
			break
		}
	}
	if p.play(route).KingCapturable(p.toMove) {
		return Move{}, fmt.Errorf("%s: %w", m, ErrKingCapturable)
	}
	return route, nil
}

// pseudoReason says why m is not a pseudo move of the side to move, or nil.
func (p Position) pseudoReason(m Move) error {
	if !m.From.Valid() || !m.To.Valid() {
		return fmt.Errorf("square off the board: %w", ErrNotAMove)
	}
	c := p.board[m.From]
	switch {
	case !c.full:
		return fmt.Errorf("%s: %w", m.From, ErrNoUnit)
	case c.side != p.toMove:
		return fmt.Errorf("%s is the %s player's: %w", m.From, c.side, ErrNotYourUnit)
	}
	u := p.races[c.side].Units[c.unit]
	switch m.Kind {
	case Explosion:
		if u.Explode == 0 {
			return fmt.Errorf("a %s has no explosion: %w", u.Name, ErrNotAMove)
		}
		if !p.canExplode(m.From) {
			return ErrOwnKing
		}
		return nil
	case Double:
		return p.doubleReason(m, u)
	}
	if err := p.stepReason(m.From, m.To); err == nil || !u.Double {
		return err
	}
	for _, l := range p.pieceMoves(m.From, nil) {
		if l.Kind == Double && l.To == m.To {
			return nil
		}
	}
	return p.stepReason(m.From, m.To)
}

func (p Position) doubleReason(m Move, u *Unit) error {
	if !u.Double {
		return fmt.Errorf("a %s has no second move: %w", u.Name, ErrNotAMove)
	}
	if !m.Via.Valid() {
		return fmt.Errorf("via square off the board: %w", ErrNotAMove)
	}
	if err := p.stepReason(m.From, m.Via); err != nil {
		return fmt.Errorf("first move: %w", err)
	}
	if p.board[m.Via].full {
		return fmt.Errorf("the first move captured on %s: %w", m.Via, ErrNoSecondMove)
	}
	if m.To == m.From {
		return fmt.Errorf("back to %s: %w", m.From, ErrPass)
	}
	if err := p.moveUnit(m.From, m.Via).stepReason(m.Via, m.To); err != nil {
		return fmt.Errorf("second move: %w", err)
	}
	return nil
}

// stepReason says why the unit on from cannot go to `to` in one dot,
// arrow or jump, or nil.
func (p Position) stepReason(from, to Square) error {
	if from == to {
		return ErrPass
	}
	c := p.board[from]
	if t := p.board[to]; t.full && t.side == c.side {
		return fmt.Errorf("%s: %w", to, ErrOwnUnit)
	}
	ok := false
	p.reachable(from, func(sq Square, _ bool) { ok = ok || sq == to })
	if ok {
		return nil
	}
	u := p.races[c.side].Units[c.unit]
	if p.onBlockedArrow(from, to, u, c.side) {
		return fmt.Errorf("to %s: %w", to, ErrBlocked)
	}
	return fmt.Errorf("a %s from %s to %s: %w", u.Name, from, to, ErrNotAMove)
}

// onBlockedArrow says whether `to` lies along one of the unit's arrows
// but the way is blocked (a square along a dot's direction only is
// simply out of reach).
func (p Position) onBlockedArrow(from, to Square, u *Unit, s Side) bool {
	for _, v := range append(append([]vec(nil), u.slides...), u.steps...) {
		d := s.orient(v)
		for sq, on := step(from, d); on; sq, on = step(sq, d) {
			if sq == to {
				return hasVec(u.slides, v)
			}
		}
	}
	return false
}
