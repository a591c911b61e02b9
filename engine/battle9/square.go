package battle9

import (
	"fmt"
	"strings"
)

// Size is the number of files and of rows of the board ("The game is
// played on a board with 9x9 squares").
const Size = 9

// NumSquares is the number of squares of the board.
const NumSquares = Size * Size

// Square is a square of the board: 0 is a1, 8 is i1, 9 is a2, 80 is i9.
// Files a..i run left to right for the first player, rows 1..9 from the
// first player's edge to the second player's edge.
type Square int8

// NoSquare is the zero-information square (no via square, no square).
const NoSquare Square = -1

// At is the square at file f (0 = a) and row r (0 = row 1); the second
// result is false when it lies off the board.
func At(f, r int) (Square, bool) {
	if f < 0 || f >= Size || r < 0 || r >= Size {
		return NoSquare, false
	}
	return Square(r*Size + f), true
}

// File is the file of s, 0 for a.
func (s Square) File() int { return int(s) % Size }

// Row is the row of s, 0 for row 1.
func (s Square) Row() int { return int(s) / Size }

// Valid says whether s is a square of the board.
func (s Square) Valid() bool { return s >= 0 && s < NumSquares }

// String is the square's name, "a1" to "i9".
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return fmt.Sprintf("%c%d", 'a'+s.File(), s.Row()+1)
}

// ParseSquare reads a square name such as "e5" (case-insensitive).
func ParseSquare(name string) (Square, error) {
	n := strings.ToLower(name)
	if len(n) != 2 || n[0] < 'a' || n[0] > 'i' || n[1] < '1' || n[1] > '9' {
		return NoSquare, fmt.Errorf("square %q: want a file a-i and a row 1-9, like e5", name)
	}
	s, _ := At(int(n[0]-'a'), int(n[1]-'1'))
	return s, nil
}

// chebyshev is the king-move distance between two squares.
func chebyshev(a, b Square) int {
	return max(abs(a.File()-b.File()), abs(a.Row()-b.Row()))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
