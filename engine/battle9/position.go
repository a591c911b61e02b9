package battle9

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Side is a player: First sets up on rows 1-3, Second on rows 7-9.
type Side uint8

const (
	First  Side = 0
	Second Side = 1
)

// Other is the opponent of s.
func (s Side) Other() Side { return 1 - s }

func (s Side) String() string {
	if s == First {
		return "first"
	}
	return "second"
}

// orient turns a first-player displacement into this side's: the second
// player sits across the table, so its directions are turned by 180 degrees.
func (s Side) orient(v vec) vec {
	if s == Second {
		return vec{-v.x, -v.y}
	}
	return v
}

// ErrPosition marks a position text that cannot be read.
var ErrPosition = errors.New("invalid position")

// Piece is a unit on the board and the side it belongs to.
type Piece struct {
	Side Side
	Unit *Unit
}

// cell is one square of the board; the zero value is empty.
type cell struct {
	full bool
	side Side
	unit uint8 // index in the side's race
}

// Position is a state of the battle: the races of both sides, the units
// on the board and the side to move. It is an immutable value: every
// method that changes it returns a new Position. The unit table it points
// to is shared and read-only. The zero Position is not usable; build one
// with NewPosition or ParsePosition.
type Position struct {
	table  *Table
	races  [2]*Race
	board  [NumSquares]cell
	toMove Side
}

// NewPosition is an empty board for the two races, the first side to move.
func NewPosition(t *Table, first, second string) (Position, error) {
	var p Position
	p.table = t
	for i, name := range []string{first, second} {
		r, ok := t.Race(name)
		if !ok {
			return Position{}, fmt.Errorf("%w: race %q: want one of %s", ErrPosition, name, strings.Join(t.RaceNames(), ", "))
		}
		p.races[i] = r
	}
	return p, nil
}

// Equal says whether p and q have the same races (by name), the same
// units on the same squares and the same side to move.
func (p Position) Equal(q Position) bool {
	return p.String() == q.String()
}

// Table is the unit table the position uses.
func (p Position) Table() *Table { return p.table }

// Race is the race of side s.
func (p Position) Race(s Side) *Race { return p.races[s] }

// ToMove is the side whose turn it is.
func (p Position) ToMove() Side { return p.toMove }

// WithToMove is p with side s to move.
func (p Position) WithToMove(s Side) Position {
	p.toMove = s
	return p
}

// At is the piece on sq; false when the square is empty.
func (p Position) At(sq Square) (Piece, bool) {
	c := p.board[sq]
	if !c.full {
		return Piece{}, false
	}
	return Piece{Side: c.side, Unit: p.races[c.side].Units[c.unit]}, true
}

// Put is p with a unit of side s (named as in the table) on sq, replacing
// whatever stood there.
func (p Position) Put(sq Square, s Side, unit string) (Position, error) {
	if !sq.Valid() {
		return p, fmt.Errorf("%w: square %d is off the board", ErrPosition, sq)
	}
	for i, u := range p.races[s].Units {
		if strings.EqualFold(u.Name, unit) {
			p.board[sq] = cell{full: true, side: s, unit: uint8(i)}
			return p, nil
		}
	}
	return p, fmt.Errorf("%w: no unit %q among the %s", ErrPosition, unit, p.races[s].Name)
}

// Remove is p with sq empty.
func (p Position) Remove(sq Square) Position {
	p.board[sq] = cell{}
	return p
}

func (p Position) isKing(sq Square) bool {
	c := p.board[sq]
	return c.full && p.races[c.side].Units[c.unit].King
}

// Kings lists the squares of side s's Kings.
func (p Position) Kings(s Side) []Square {
	var out []Square
	for sq := Square(0); sq < NumSquares; sq++ {
		if p.board[sq].full && p.board[sq].side == s && p.isKing(sq) {
			out = append(out, sq)
		}
	}
	return out
}

// Count is the number of units of side s on the board.
func (p Position) Count(s Side) int {
	n := 0
	for _, c := range p.board {
		if c.full && c.side == s {
			n++
		}
	}
	return n
}

// Cost is what side s's units on the board cost, Kings free, as a
// lineup's cost is counted ("in sum the cost can't exceed 50"). A sum too
// large for an int (a table of huge costs) is math.MaxInt, so that it
// cannot wrap below the budget.
func (p Position) Cost(s Side) int {
	c := 0
	for _, cl := range p.board {
		if cl.full && cl.side == s {
			c = satAdd(c, p.races[s].Units[cl.unit].Cost)
		}
	}
	return c
}

// String is the text form of the position: the races of the first and
// second side joined by ':', the rows from 9 down to 1 separated by '/'
// (a unit's letter, upper case for the first side and lower case for the
// second, a digit for a run of empty squares), and the side to move (1 or
// 2). Example: "dwarfs:orcs 4k4/9/9/9/9/9/9/9/4K4 1".
func (p Position) String() string {
	var b strings.Builder
	b.WriteString(p.races[0].Name + ":" + p.races[1].Name + " ")
	for r := Size - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < Size; f++ {
			sq, _ := At(f, r)
			pc, ok := p.At(sq)
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprintf(&b, "%d", empty)
				empty = 0
			}
			b.WriteString(letterOf(pc))
		}
		if empty > 0 {
			fmt.Fprintf(&b, "%d", empty)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	fmt.Fprintf(&b, " %d", p.toMove+1)
	return b.String()
}

func letterOf(pc Piece) string {
	if pc.Side == First {
		return strings.ToUpper(pc.Unit.Letter)
	}
	return strings.ToLower(pc.Unit.Letter)
}

// ParsePosition reads the text form written by Position.String, with the
// unit letters of table t.
func ParsePosition(text string, t *Table) (Position, error) {
	fields := strings.Fields(text)
	if len(fields) != 3 {
		return Position{}, fmt.Errorf("%w: %q: want three fields: RACE:RACE ROWS SIDE, like \"dwarfs:orcs 4k4/9/9/9/9/9/9/9/4K4 1\"", ErrPosition, text)
	}
	races := strings.Split(fields[0], ":")
	if len(races) != 2 {
		return Position{}, fmt.Errorf("%w: races %q: want FIRST:SECOND, like dwarfs:orcs", ErrPosition, fields[0])
	}
	p, err := NewPosition(t, races[0], races[1])
	if err != nil {
		return Position{}, err
	}
	if p.board, err = p.parseRows(fields[1]); err != nil {
		return Position{}, err
	}
	switch fields[2] {
	case "1":
		p.toMove = First
	case "2":
		p.toMove = Second
	default:
		return Position{}, fmt.Errorf("%w: side to move %q: want 1 (first) or 2 (second)", ErrPosition, fields[2])
	}
	if err := p.Validate(); err != nil {
		return Position{}, err
	}
	return p, nil
}

// Validate says why p cannot arise in a game, or nil. Each side has at
// least one King and no more than its race is given ("Both players
// additionally get a King - you cannot buy more Kings"; elves get
// several and may lose all but the last), at most the table's MaxUnits
// units ("The army can have 27 units at most"), and units costing at
// most the table's Budget, Kings free ("in sum the cost can't exceed
// 50"): no move adds a unit or turns it into another (the rules have no
// promotion; Goblins in the last row stay Goblins), so the units on the
// board are what is left of a lineup and never cost more than it did. The
// side that has just moved cannot have left its King capturable ("A
// player is not allowed to move in such a way that his King (concerning
// elves: the last King) can be captured"). When the battle begins, that
// is the side that placed the last unit: Setup.Place refuses any
// placement leaving a King capturable, so Setup.Battle's position passes.
// The errors wrap ErrPosition; an army over the budget wraps
// ErrOverBudget too.
func (p Position) Validate() error {
	for _, s := range []Side{First, Second} {
		r := p.races[s]
		switch k := len(p.Kings(s)); {
		case k == 0:
			return fmt.Errorf("%w: the %s player (%s) has no King: a King is never captured, the game ends at checkmate", ErrPosition, s, r.Name)
		case k > r.Kings():
			return fmt.Errorf("%w: the %s player (%s) has %d Kings: the %s get %d, you cannot buy more Kings", ErrPosition, s, r.Name, k, r.Name, r.Kings())
		}
		if n := p.Count(s); n > p.table.MaxUnits {
			return fmt.Errorf("%w: the %s player has %d units: an army has %d at most", ErrPosition, s, n, p.table.MaxUnits)
		}
		if c := p.Cost(s); c > p.table.Budget {
			return fmt.Errorf("%w: %w: the %s player's units (%s) cost %d: in sum the cost can't exceed %d (Kings are free), and no move adds units",
				ErrPosition, ErrOverBudget, s, r.Name, c, p.table.Budget)
		}
	}
	if s := p.toMove.Other(); p.KingCapturable(s) {
		return fmt.Errorf("%w: the %s player's King can be captured though it is the %s player's turn: no legal move leaves one's own King so", ErrPosition, s, p.toMove)
	}
	return nil
}

func (p Position) parseRows(s string) ([NumSquares]cell, error) {
	var board [NumSquares]cell
	rows := strings.Split(s, "/")
	if len(rows) != Size {
		return board, fmt.Errorf("%w: %d rows: the board has %d (rows 9 to 1, separated by /)", ErrPosition, len(rows), Size)
	}
	for i, row := range rows {
		r := Size - 1 - i
		f := 0
		for j, c := range row {
			if c >= '1' && c <= '9' {
				f += int(c - '0')
				continue
			}
			if f >= Size {
				return board, fmt.Errorf("%w: row %d %q: more than %d squares", ErrPosition, r+1, row, Size)
			}
			cl, err := p.cellOf(row[j:])
			if err != nil {
				return board, fmt.Errorf("%w: row %d: %v", ErrPosition, r+1, err)
			}
			board[r*Size+f] = cl
			f++
		}
		if f != Size {
			return board, fmt.Errorf("%w: row %d %q: covers %d squares, want %d", ErrPosition, r+1, row, f, Size)
		}
	}
	return board, nil
}

// cellOf reads the unit letter at the start of s, a row's text from that
// square on.
func (p Position) cellOf(s string) (cell, error) {
	c := s[0]
	side := First
	if c >= 'a' && c <= 'z' {
		side = Second
	} else if c < 'A' || c > 'Z' {
		return cell{}, fmt.Errorf("%s: want a unit letter or a digit", describeChar(s))
	}
	i, ok := p.races[side].byLetter(c)
	if !ok {
		return cell{}, fmt.Errorf("letter %q: no such unit among the %s (%s side)", c, p.races[side].Name, side)
	}
	return cell{full: true, side: side, unit: uint8(i)}, nil
}

// describeChar names the character at the start of s as written:
// "character 'é'", not its first byte; "byte 0xff" when s does not start
// with valid UTF-8.
func describeChar(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte %#02x", s[0])
	}
	return fmt.Sprintf("character %q", r)
}

// Diagram draws the board for people: row 9 at the top, files a-i below,
// '.' for an empty square.
func (p Position) Diagram() string {
	var b strings.Builder
	for r := Size - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%d ", r+1)
		for f := 0; f < Size; f++ {
			sq, _ := At(f, r)
			if pc, ok := p.At(sq); ok {
				b.WriteString(" " + letterOf(pc))
			} else {
				b.WriteString(" .")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("   a b c d e f g h i\n")
	return b.String()
}
