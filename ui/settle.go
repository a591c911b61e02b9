package ui

import (
	"math"

	"tableref/models"
)

// SettleGate decides when the table has settled: rulings update only from
// a layout that has stayed the same, within Tolerance, for Frames frames
// in a row, with no motion reported by the source. The zero value works:
// 3 frames, 0.3 cm.
type SettleGate struct {
	// Frames is how many consecutive frames must agree (3 when zero).
	Frames int
	// Tolerance is how far a disk or token may move between two frames
	// and still count as unchanged (0.3 cm when zero).
	Tolerance models.Centimetres

	last   *models.Layout
	stable int
}

// Observe feeds the next layout; motion reports a hand or movement seen
// by the source. It returns true when the table is settled.
func (g *SettleGate) Observe(l models.Layout, motion bool) bool {
	n, tol := g.Frames, g.tolerance()
	if n <= 0 {
		n = 3
	}
	switch {
	case motion:
		g.stable = 0
	case g.last != nil && SameLayout(*g.last, l, tol):
		g.stable++
	default:
		g.stable = 1
	}
	g.last = &l
	return g.stable >= n
}

// tolerance returns Tolerance, 0.3 cm when zero.
func (g *SettleGate) tolerance() models.Centimetres {
	if g.Tolerance <= 0 {
		return 0.3
	}
	return g.Tolerance
}

// Reset forgets the frames seen, as after a correction.
func (g *SettleGate) Reset() { g.last, g.stable = nil, 0 }

// SameLayout reports whether two layouts hold the same disks and tokens
// (by id) with the same stacking, kinds and owners, each within tol cm of
// where it was.
func SameLayout(a, b models.Layout, tol models.Centimetres) bool {
	if len(a.Disks) != len(b.Disks) || len(a.Tokens) != len(b.Tokens) {
		return false
	}
	ib := b.DiskIndex()
	for _, d := range a.Disks {
		j, ok := ib[d.ID]
		if !ok {
			return false
		}
		e := b.Disks[j]
		if e.Z != d.Z || e.Owner != d.Owner || e.Name != d.Name || !near(d.X, d.Y, e.X, e.Y, tol) || math.Abs(float64(d.R-e.R)) > float64(tol) {
			return false
		}
	}
	tb := map[string]models.Token{}
	for _, t := range b.Tokens {
		tb[t.ID] = t
	}
	for _, t := range a.Tokens {
		u, ok := tb[t.ID]
		if !ok || u.Kind != t.Kind || !near(t.X, t.Y, u.X, u.Y, tol) {
			return false
		}
	}
	return true
}

func near(x0, y0, x1, y1, tol models.Centimetres) bool {
	return math.Hypot(float64(x0-x1), float64(y0-y1)) <= float64(tol)
}
