package engine

import (
	"fmt"
	"slices"

	"tableref/models"
)

// Table is the geometry of one layout, computed once: overlaps, the
// contact (pinning) relation, contact chains and the tokens' touches and
// hits. It never changes after NewTable and is safe for concurrent reads.
//
// Disks and tokens are referred to by their index in the layout.
type Table struct {
	layout   models.Layout
	circles  []Circle
	index    map[string]int
	pins     [][]int // pins[i]: the disks i is on top of, ascending
	pinnedBy [][]int // pinnedBy[i]: the disks on top of i, ascending
	chainOf  []int   // chainOf[i]: the number of i's contact chain
	chains   [][]int
	touches  [][]int // touches[t]: the disks token t touches, ascending
	hits     [][]int // hits[t]: the disks projectile token t hits
	warnings []string
}

// Contact is one pair of the contact relation: Top lies on Bottom, pins it.
type Contact struct{ Top, Bottom int }

// NewTable computes the geometry of a layout. The layout is kept as it is
// and must not be changed afterwards by the caller.
func NewTable(l models.Layout) *Table {
	t := &Table{layout: l, index: l.DiskIndex()}
	t.circles = make([]Circle, len(l.Disks))
	for i, d := range l.Disks {
		t.circles[i] = Circle{Vec{float64(d.X), float64(d.Y)}, float64(d.R)}
	}
	t.computeContacts()
	t.computeChains()
	t.computeTokens()
	return t
}

// Layout returns the layout the table was built from. Its slices are
// shared: do not change them.
func (t *Table) Layout() models.Layout { return t.layout }

// Disks returns the layout's disks (shared: do not change them).
func (t *Table) Disks() []models.Disk { return t.layout.Disks }

// Disk returns disk i.
func (t *Table) Disk(i int) models.Disk { return t.layout.Disks[i] }

// Len returns the number of disks.
func (t *Table) Len() int { return len(t.circles) }

// Index returns the index of the disk with the given id.
func (t *Table) Index(id string) (int, bool) {
	i, ok := t.index[id]
	return i, ok
}

// ID returns the id of disk i.
func (t *Table) ID(i int) string { return t.layout.Disks[i].ID }

// IDs returns the ids of the disks at the given indices.
func (t *Table) IDs(idx []int) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = t.ID(i)
	}
	return out
}

// Circle returns the outline of disk i.
func (t *Table) Circle(i int) Circle { return t.circles[i] }

// Edge returns the edge-to-edge distance of disks i and j in cm; negative
// when they overlap.
func (t *Table) Edge(i, j int) models.Centimetres {
	return models.Centimetres(Edge(t.circles[i], t.circles[j]))
}

// Overlap reports whether disks i and j overlap.
func (t *Table) Overlap(i, j int) bool { return i != j && Overlap(t.circles[i], t.circles[j]) }

// OnTop reports whether disk top is in contact with disk bottom from
// above: it pins (blocks) it.
func (t *Table) OnTop(top, bottom int) bool {
	_, found := slices.BinarySearch(t.pins[top], bottom)
	return found
}

// InContact reports whether i and j are in contact, either way up.
func (t *Table) InContact(i, j int) bool { return t.OnTop(i, j) || t.OnTop(j, i) }

// Pins returns the disks that disk i is on top of (shared: do not change).
func (t *Table) Pins(i int) []int { return t.pins[i] }

// PinnedBy returns the disks on top of disk i (shared: do not change).
func (t *Table) PinnedBy(i int) []int { return t.pinnedBy[i] }

// Pinned reports whether some disk is on top of disk i (it is blocked).
func (t *Table) Pinned(i int) bool { return len(t.pinnedBy[i]) > 0 }

// Contacts returns every pair of the contact relation, ordered by the top
// disk's index, then the bottom's.
func (t *Table) Contacts() []Contact {
	var out []Contact
	for top, bs := range t.pins {
		for _, b := range bs {
			out = append(out, Contact{top, b})
		}
	}
	return out
}

// Chains returns the contact chains: the connected components of the
// contact graph with two disks or more, each ascending, ordered by their
// first disk.
func (t *Table) Chains() [][]int { return t.chains }

// ChainOf returns the contact chain of disk i: every disk linked to it by
// contacts, itself included, ascending.
func (t *Table) ChainOf(i int) []int {
	if c := t.chainOf[i]; c >= 0 {
		return t.chains[c]
	}
	return []int{i}
}

// WithinOfDisk returns the other disks whose edge-to-edge distance from
// disk i is at most r centimetres, ascending. A disk exactly r away as
// written is within, whatever the rounding: the test allows Epsilon, as
// Overlap does.
func (t *Table) WithinOfDisk(i int, r models.Centimetres) []int {
	var out []int
	for j := range t.circles {
		if j != i && float64(t.Edge(i, j)) <= float64(r)+Epsilon {
			out = append(out, j)
		}
	}
	return out
}

// WithinOfPoint returns the disks whose edge lies at most r centimetres
// from point p (or that cover p), ascending, with Epsilon allowed as in
// WithinOfDisk.
func (t *Table) WithinOfPoint(p models.TablePoint, r models.Centimetres) []int {
	pv := Vec{float64(p.X), float64(p.Y)}
	var out []int
	for j, c := range t.circles {
		if pv.Sub(c.C).Len()-c.R <= float64(r)+Epsilon {
			out = append(out, j)
		}
	}
	return out
}

// Warnings returns what the geometry found doubtful in the layout.
func (t *Table) Warnings() []string { return t.warnings }

// above reports whether disk i lies above disk j where they overlap.
// Terrain lies at the bottom whatever its z; otherwise the higher z is
// above. Equal levels are neither above nor below.
func (t *Table) above(i, j int) bool { return t.level(i).after(t.level(j)) }

type level struct{ layer, z int }

func (a level) after(b level) bool {
	return a.layer > b.layer || (a.layer == b.layer && a.z > b.z)
}

func (t *Table) level(i int) level {
	d := t.layout.Disks[i]
	layer := 1
	if d.IsTerrain() {
		layer = 0
	}
	return level{layer, d.Z}
}

// computeContacts finds every overlapping pair and applies the sandwich
// rule (see cover.go).
func (t *Table) computeContacts() {
	t.pins, t.pinnedBy = t.contactLists(nil, true)
}

// ContactsWithout returns the contact relation (pins[i], the disks i lies
// on; pinnedBy[i], those on it; both ascending) with the disks gone
// reports taken off the table: a disk destroyed during a turn leaves at
// once, and no longer keeps the disks above and below it apart. gone(i)
// disks are in no contact.
func (t *Table) ContactsWithout(gone func(int) bool) (pins, pinnedBy [][]int) {
	return t.contactLists(gone, false)
}

// contactLists computes the contact relation without the disks gone
// reports (nil: none), warning of overlapping disks at one level when
// warn is set.
func (t *Table) contactLists(gone func(int) bool, warn bool) (pins, pinnedBy [][]int) {
	n := len(t.circles)
	pins = make([][]int, n)
	pinnedBy = make([][]int, n)
	on := func(i int) bool { return gone == nil || !gone(i) }
	overlaps := t.overlapLists()
	for i := range n {
		if !on(i) {
			continue
		}
		for _, j := range overlaps[i] {
			if j < i || !on(j) {
				continue
			}
			top, bottom := i, j
			switch {
			case t.above(j, i):
				top, bottom = j, i
			case !t.above(i, j):
				if warn {
					t.warnf("disks %q and %q overlap at the same stacking level z=%d: which lies above is unknown, so neither pins the other",
						t.ID(i), t.ID(j), t.layout.Disks[i].Z)
				}
				continue
			}
			if t.inContact(top, bottom, overlaps, on) {
				pins[top] = append(pins[top], bottom)
				pinnedBy[bottom] = append(pinnedBy[bottom], top)
			}
		}
	}
	for i := range n {
		slices.Sort(pins[i])
		slices.Sort(pinnedBy[i])
	}
	return pins, pinnedBy
}

// inContact applies the sandwich rule to an overlapping pair, with the
// disks on the table (on) between them.
func (t *Table) inContact(top, bottom int, overlaps [][]int, on func(int) bool) bool {
	var between []Circle
	lt, lb := t.level(top), t.level(bottom)
	for _, k := range overlaps[top] {
		lk := t.level(k)
		if k != bottom && on(k) && lt.after(lk) && lk.after(lb) && t.Overlap(k, bottom) {
			between = append(between, t.circles[k])
		}
	}
	return !LensCovered(t.circles[top], t.circles[bottom], between)
}

// overlapLists returns, for each disk, the disks it overlaps, ascending.
// Disks are swept in order of their left edge so that only neighbours
// along x are compared.
func (t *Table) overlapLists() [][]int {
	n := len(t.circles)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmpFloat(t.circles[a].C.X-t.circles[a].R, t.circles[b].C.X-t.circles[b].R)
	})
	out := make([][]int, n)
	for k, i := range order {
		right := t.circles[i].C.X + t.circles[i].R
		for _, j := range order[k+1:] {
			if t.circles[j].C.X-t.circles[j].R >= right {
				break
			}
			if Overlap(t.circles[i], t.circles[j]) {
				out[i] = append(out[i], j)
				out[j] = append(out[j], i)
			}
		}
	}
	for i := range out {
		slices.Sort(out[i])
	}
	return out
}

func (t *Table) computeChains() {
	n := len(t.circles)
	t.chainOf = make([]int, n)
	for i := range t.chainOf {
		t.chainOf[i] = -1
	}
	for s := range n {
		if t.chainOf[s] >= 0 || (len(t.pins[s]) == 0 && len(t.pinnedBy[s]) == 0) {
			continue
		}
		id := len(t.chains)
		chain := []int{s}
		t.chainOf[s] = id
		for q := 0; q < len(chain); q++ {
			for _, nb := range [][]int{t.pins[chain[q]], t.pinnedBy[chain[q]]} {
				for _, j := range nb {
					if t.chainOf[j] < 0 {
						t.chainOf[j] = id
						chain = append(chain, j)
					}
				}
			}
		}
		slices.Sort(chain)
		t.chains = append(t.chains, chain)
	}
}

func (t *Table) warnf(format string, args ...any) {
	t.warnings = append(t.warnings, fmt.Sprintf(format, args...))
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Round2 rounds a distance in cm to 0.01 as the report does (round2), so
// that a program showing distances beside the report's shows the same
// digits.
func Round2(v float64) float64 { return round2(v) }

// round2 rounds to 0.01, the precision of the report, as
// models.Centimetres.Round2 does: halves away from zero as written in
// decimal (1.005 cm, stored a little below, is 1.01), never -0.
func round2(v float64) float64 { return float64(models.Centimetres(v).Round2()) }
