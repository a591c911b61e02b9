package battle9

// Game is a battle in progress: its positions from the start and the
// moves between them. Positions are values, so the history is kept as is
// and Undo is dropping the last one. A Game is not safe for concurrent use.
type Game struct {
	positions []Position
	moves     []Move
}

// NewGame starts a battle from p.
func NewGame(p Position) *Game { return &Game{positions: []Position{p}} }

// Position is the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Positions is the history, the start first (a copy).
func (g *Game) Positions() []Position { return append([]Position(nil), g.positions...) }

// Moves are the moves played (a copy); Moves()[i] led from Positions()[i]
// to Positions()[i+1].
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// Play plays m if it is legal, or says why not and leaves the game as is.
func (g *Game) Play(m Move) error {
	p := g.Position()
	route, err := p.Resolve(m)
	if err != nil {
		return err
	}
	g.positions = append(g.positions, p.play(route))
	g.moves = append(g.moves, route)
	return nil
}

// Undo takes back the last move; false when none was played.
func (g *Game) Undo() bool {
	if len(g.moves) == 0 {
		return false
	}
	g.positions = g.positions[:len(g.positions)-1]
	g.moves = g.moves[:len(g.moves)-1]
	return true
}

// Status is the status of the current position.
func (g *Game) Status() Status { return g.Position().Status() }

// Perft counts the sequences of depth legal moves from p (the leaves of
// the move tree); a move is counted once per distinct outcome (see
// LegalMoves). A finished game has no moves.
func Perft(p Position, depth int) int {
	if depth == 0 {
		return 1
	}
	moves := p.LegalMoves()
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, m := range moves {
		n += Perft(p.play(m), depth-1)
	}
	return n
}
