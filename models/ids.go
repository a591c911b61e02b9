package models

import (
	"cmp"
	"strings"
)

// CompareIDs orders two names as people read them: runs of digits compare
// by their value, so disk "d9" comes before "d10" and "frame2.png" before
// "frame10.png". Names equal by that reading ("d09", "d9") fall back to
// byte order, so the order is total and never depends on input order.
func CompareIDs(a, b string) int {
	x, y := a, b
	for x != "" && y != "" {
		if isDigit(x[0]) && isDigit(y[0]) {
			i, j := digitRun(x), digitRun(y)
			nx, ny := strings.TrimLeft(x[:i], "0"), strings.TrimLeft(y[:j], "0")
			if c := cmp.Compare(len(nx), len(ny)); c != 0 {
				return c
			}
			if c := strings.Compare(nx, ny); c != 0 {
				return c
			}
			x, y = x[i:], y[j:]
			continue
		}
		if c := cmp.Compare(x[0], y[0]); c != 0 {
			return c
		}
		x, y = x[1:], y[1:]
	}
	if c := cmp.Compare(len(x), len(y)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digitRun returns the length of the run of digits s starts with.
func digitRun(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
