package battle9

// Move generation. "Pseudo" moves follow the units' moving abilities and
// the capture rules but ignore whether they leave the mover's King
// capturable; the legal moves are the pseudo moves that do not.

// target says what a unit of side s may do on sq: move there (empty),
// capture there (an opponent's unit) or neither (off the board or own unit).
func (p Position) target(sq Square, s Side) (ok, capture bool) {
	c := p.board[sq]
	if !c.full {
		return true, false
	}
	return c.side != s, c.side != s
}

func step(sq Square, v vec) (Square, bool) {
	return At(sq.File()+v.x, sq.Row()+v.y)
}

// reachable calls visit for every square the unit on sq can reach with
// one dot, arrow or jump; capture says an opponent's unit stands there.
// Arrows stop at the first unit: they cannot jump over it.
func (p Position) reachable(sq Square, visit func(to Square, capture bool)) {
	c := p.board[sq]
	u := p.races[c.side].Units[c.unit]
	for _, v := range u.steps {
		if to, on := step(sq, c.side.orient(v)); on {
			if ok, capt := p.target(to, c.side); ok {
				visit(to, capt)
			}
		}
	}
	for _, v := range u.slides {
		d := c.side.orient(v)
		for to, on := step(sq, d); on; to, on = step(to, d) {
			ok, capt := p.target(to, c.side)
			if ok {
				visit(to, capt)
			}
			if p.board[to].full {
				break
			}
		}
	}
	for _, v := range u.leaps {
		if to, on := step(sq, c.side.orient(v)); on {
			if ok, capt := p.target(to, c.side); ok {
				visit(to, capt)
			}
		}
	}
}

// area lists the squares within radius r (Chebyshev) of sq on the board:
// radius 2 is the 5x5 area of the Shaman's explosion.
func area(sq Square, r int) []Square {
	var out []Square
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if t, ok := At(sq.File()+dx, sq.Row()+dy); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// canExplode says whether the unit on sq may explode: it has an
// explosion and its own King is not in the area ("it is not allowed to
// destroy the own King").
func (p Position) canExplode(sq Square) bool {
	c := p.board[sq]
	u := p.races[c.side].Units[c.unit]
	if u.Explode == 0 {
		return false
	}
	for _, t := range area(sq, u.Explode) {
		if tc := p.board[t]; tc.full && tc.side == c.side && p.isKing(t) {
			return false
		}
	}
	return true
}

// pieceMoves appends the pseudo moves of the unit on sq. A destination
// reached both directly and by a Troll's two moves is listed once, as a
// Step; a destination reached by two moves through several squares is
// listed once, through the first of them in generation order.
func (p Position) pieceMoves(sq Square, out []Move) []Move {
	var seen [NumSquares]bool
	var firsts []Square
	p.reachable(sq, func(to Square, capture bool) {
		if seen[to] { // a dot and an arrow in the same direction
			return
		}
		seen[to] = true
		out = append(out, StepMove(sq, to))
		if !capture {
			firsts = append(firsts, to)
		}
	})
	c := p.board[sq]
	u := p.races[c.side].Units[c.unit]
	if u.Double {
		for _, via := range firsts {
			q := p.moveUnit(sq, via)
			q.reachable(via, func(to Square, _ bool) {
				if to == sq || seen[to] { // back to the start would be a pass
					return
				}
				seen[to] = true
				out = append(out, DoubleMove(sq, via, to))
			})
		}
	}
	if p.canExplode(sq) {
		out = append(out, ExplosionMove(sq))
	}
	return out
}

// pseudoMoves appends the pseudo moves of side s.
func (p Position) pseudoMoves(s Side, out []Move) []Move {
	for sq := Square(0); sq < NumSquares; sq++ {
		if c := p.board[sq]; c.full && c.side == s {
			out = p.pieceMoves(sq, out)
		}
	}
	return out
}

func (p Position) moveUnit(from, to Square) Position {
	p.board[to] = p.board[from]
	p.board[from] = cell{}
	return p
}

// play is p after m, with the other side to move; m is not checked.
func (p Position) play(m Move) Position {
	switch m.Kind {
	case Explosion:
		c := p.board[m.From]
		for _, t := range area(m.From, p.races[c.side].Units[c.unit].Explode) {
			p.board[t] = cell{}
		}
	default:
		p = p.moveUnit(m.From, m.To)
	}
	p.toMove = p.toMove.Other()
	return p
}

// Removed lists the squares whose units m takes off the board (captured
// opponents, and for an explosion every unit in the area, own ones and the
// Shaman included); m is not checked.
func (p Position) Removed(m Move) []Square {
	var out []Square
	switch m.Kind {
	case Explosion:
		c := p.board[m.From]
		for _, t := range area(m.From, p.races[c.side].Units[c.unit].Explode) {
			if p.board[t].full {
				out = append(out, t)
			}
		}
	default:
		if p.board[m.To].full {
			out = append(out, m.To)
		}
	}
	return out
}

// KingCapturable says whether side s's King can be captured: whether the
// opponent has a move (ignoring its own King's safety) after which s has
// no King left. With one King this is the usual check; with several
// (elves) only an explosion covering all of them could do it, so "the
// last King" is the one that counts. A side with no King is not in check
// (it has already lost).
func (p Position) KingCapturable(s Side) bool {
	kings := p.Kings(s)
	if len(kings) == 0 {
		return false
	}
	for sq := Square(0); sq < NumSquares; sq++ {
		if c := p.board[sq]; c.full && c.side != s && p.takes(sq, kings) {
			return true
		}
	}
	return false
}

// attackers lists the squares of the opponent's units that could capture
// side s's King (with several Kings, the last: an explosion covering them
// all), in board order; none when s has no King on the board.
func (p Position) attackers(s Side) []Square {
	kings := p.Kings(s)
	if len(kings) == 0 {
		return nil
	}
	var out []Square
	for sq := Square(0); sq < NumSquares; sq++ {
		if c := p.board[sq]; c.full && c.side != s && p.takes(sq, kings) {
			out = append(out, sq)
		}
	}
	return out
}

// takes says whether the unit on from has a pseudo move that removes
// every unit on sqs (opponents of it): a move onto the only one, or an
// explosion covering them all.
func (p Position) takes(from Square, sqs []Square) bool {
	c := p.board[from]
	u := p.races[c.side].Units[c.unit]
	if u.Explode > 0 && p.canExplode(from) {
		all := true
		for _, k := range sqs {
			all = all && chebyshev(k, from) <= u.Explode
		}
		if all {
			return true
		}
	}
	if len(sqs) != 1 {
		return false
	}
	if p.hits(from, c.side, u, sqs[0]) {
		return true
	}
	if !u.Double {
		return false
	}
	hit := false
	p.reachable(from, func(via Square, capture bool) {
		if !hit && !capture {
			hit = p.moveUnit(from, via).hits(via, c.side, u, sqs[0])
		}
	})
	return hit
}

// hits says whether unit u of side s standing on from reaches target in
// one dot, arrow or jump.
func (p Position) hits(from Square, s Side, u *Unit, target Square) bool {
	dx, dy := target.File()-from.File(), target.Row()-from.Row()
	for _, v := range u.steps {
		if w := s.orient(v); w.x == dx && w.y == dy {
			return true
		}
	}
	for _, v := range u.leaps {
		if w := s.orient(v); w.x == dx && w.y == dy {
			return true
		}
	}
	for _, v := range u.slides {
		w := s.orient(v)
		n := max(abs(dx), abs(dy))
		if n == 0 || w.x*n != dx || w.y*n != dy {
			continue
		}
		clear := true
		for i := 1; i < n && clear; i++ {
			sq, _ := At(from.File()+w.x*i, from.Row()+w.y*i)
			clear = !p.board[sq].full
		}
		if clear {
			return true
		}
	}
	return false
}

// hasLegalMove says whether the side to move has a legal move, stopping
// at the first one found.
func (p Position) hasLegalMove() bool {
	if len(p.Kings(First)) == 0 || len(p.Kings(Second)) == 0 {
		return false
	}
	var buf [64]Move
	for sq := Square(0); sq < NumSquares; sq++ {
		if c := p.board[sq]; c.full && c.side == p.toMove {
			for _, m := range p.pieceMoves(sq, buf[:0]) {
				if !p.play(m).KingCapturable(p.toMove) {
					return true
				}
			}
		}
	}
	return false
}

// LegalMoves lists the legal moves of the side to move: its pseudo moves
// that do not leave its King (elves: its last King) capturable. When a
// side has no King left the game is over and there are none.
func (p Position) LegalMoves() []Move {
	if len(p.Kings(First)) == 0 || len(p.Kings(Second)) == 0 {
		return nil
	}
	var out []Move
	for _, m := range p.pseudoMoves(p.toMove, nil) {
		if !p.play(m).KingCapturable(p.toMove) {
			out = append(out, m)
		}
	}
	return out
}
