package board9

// turnCorner maps intersection (i, j) of the frame convention to the
// board's own, for a camera standing turn quarter turns round the board.
func turnCorner(i, j, turn int) (int, int) {
	for range ((turn % 4) + 4) % 4 {
		i, j = j, N-i
	}
	return i, j
}

// turnSquare maps square (file f, row r) of the frame convention to the
// board's own square index, as turnCorner does for intersections.
func turnSquare(f, r, turn int) int {
	for range ((turn % 4) + 4) % 4 {
		f, r = r, N-1-f
	}
	return r*N + f
}
