package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tableref/models"
)

// disk is a shorthand for test disks.
func disk(id string, x, y, r float64, z int) models.Disk {
	return models.Disk{ID: id, X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r), Z: z}
}

func layoutOf(disks ...models.Disk) models.Layout {
	return models.Layout{Version: 1, Disks: disks}
}

func contactIDs(t *Table) []string {
	var out []string
	for _, c := range t.Contacts() {
		out = append(out, t.ID(c.Top)+">"+t.ID(c.Bottom))
	}
	return out
}

func TestEdgeDistancesByHand(t *testing.T) {
	tests := []struct {
		name string
		a, b models.Disk
		want float64
	}{
		{"apart on the x axis", disk("a", 0, 0, 2, 0), disk("b", 10, 0, 3, 0), 5},
		{"3-4-5 triangle", disk("a", 0, 0, 1, 0), disk("b", 3, 4, 1.5, 0), 2.5},
		{"edges touching", disk("a", 0, 0, 2, 0), disk("b", 4, 0, 2, 0), 0},
		{"overlapping by one cm", disk("a", 0, 0, 2, 0), disk("b", 3, 0, 2, 0), -1},
		{"concentric", disk("a", 5, 5, 2, 0), disk("b", 5, 5, 3, 1), -5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := NewTable(layoutOf(tc.a, tc.b))
			if got := float64(tb.Edge(0, 1)); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("edge = %v, want %v", got, tc.want)
			}
			if got, want := tb.Overlap(0, 1), tc.want < 0; got != want {
				t.Errorf("overlap = %v, want %v", got, want)
			}
		})
	}
}

// TestTouchingDisksDoNotOverlapWhateverTheRounding checks that disks whose
// edges touch exactly as written in decimal (their distance computes a
// hair below zero or above it) neither overlap nor come into contact, and
// that the sweep of Contacts and Overlap agree on every pair.
func TestTouchingDisksDoNotOverlapWhateverTheRounding(t *testing.T) {
	// 6.4 cm apart, radii 3.2: the distance computes to -8.9e-16.
	tb := NewTable(layoutOf(disk("a", 40, 25.5, 3.2, 1), disk("b", 46.4, 25.5, 3.2, 2)))
	if tb.Overlap(0, 1) || len(tb.Contacts()) != 0 {
		t.Fatalf("touching 3.2 cm disks: overlap %v, contacts %v; want neither", tb.Overlap(0, 1), contactIDs(tb))
	}
	rng := rand.New(rand.NewPCG(7, 11))
	near := 0
	for range 2000 {
		// Two-decimal positions and radii, as a player types them; b
		// touches a along x, or lies a centimetre further in or out.
		ra, rb := float64(10+rng.IntN(500))/100, float64(10+rng.IntN(500))/100
		xa := float64(rng.IntN(10000)) / 100
		gap := float64(rng.IntN(3)-1) / 100 // -0.01, 0 or 0.01 cm
		xb := math.Round((xa+ra+rb+gap)*100) / 100
		tb := NewTable(layoutOf(disk("a", xa, 3, ra, 0), disk("b", xb, 3, rb, 1)))
		want := gap < 0
		if got := tb.Overlap(0, 1); got != want {
			t.Fatalf("a at %v r %v, b at %v r %v: overlap %v, want %v", xa, ra, xb, rb, got, want)
		}
		if got := len(tb.Contacts()) == 1; got != want {
			t.Fatalf("a at %v r %v, b at %v r %v: contact %v, want %v", xa, ra, xb, rb, got, want)
		}
		if gap == 0 && float64(tb.Edge(0, 1)) != 0 {
			near++
		}
	}
	// The test means something only if rounding did show.
	if near == 0 {
		t.Fatal("no touching pair computed off zero: the test does not exercise rounding")
	}
}

func TestRound2WritesHalvesAwayFromZero(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{1.005, 1.01}, {0.675, 0.68}, {-1.005, -1.01}, {1.0049, 1}, {2.5, 2.5}, {-0.001, 0}, {12.344999, 12.34},
	} {
		if got := round2(c.in); got != c.want || math.Signbit(got) && got == 0 {
			t.Errorf("round2(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestContactRule(t *testing.T) {
	tests := []struct {
		name  string
		disks []models.Disk
		want  []string
	}{
		{"apart: no contact", []models.Disk{disk("a", 0, 0, 2, 1), disk("b", 5, 0, 2, 0)}, nil},
		{"edges touching is not contact", []models.Disk{disk("a", 0, 0, 2, 1), disk("b", 4, 0, 2, 0)}, nil},
		{"higher z lies on the lower", []models.Disk{disk("a", 0, 0, 2, 0), disk("b", 3, 0, 2, 1)}, []string{"b>a"}},
		{"negative levels work too", []models.Disk{disk("a", 0, 0, 2, -3), disk("b", 3, 0, 2, -4)}, []string{"a>b"}},
		{
			// Diskwars rulebook, "En contact", example 1: A touches B, B
			// touches C, A does not touch C (B lies between them).
			"rulebook En contact example 1: a sandwich",
			[]models.Disk{disk("A", 0, 0, 2.5, 2), disk("B", 3, 0, 2.5, 1), disk("C", 6, 0, 2.5, 0)},
			[]string{"A>B", "B>C"},
		},
		{
			"a stack of three where the middle one covers the whole lens",
			[]models.Disk{disk("A", 0, 0, 2.5, 2), disk("B", 1, 0, 2.5, 1), disk("C", 2, 0, 2.5, 0)},
			[]string{"A>B", "B>C"},
		},
		{
			// Diskwars rulebook, "En contact", example 2: A lies on B and on
			// C, which do not overlap each other.
			"rulebook En contact example 2: one disk on two",
			[]models.Disk{disk("A", 0, 0, 2.5, 1), disk("B", -3.5, 0, 2.5, 0), disk("C", 3.5, 0, 2.5, 0)},
			[]string{"A>B", "A>C"},
		},
		{
			"a middle disk that covers only part of the lens does not separate",
			[]models.Disk{disk("A", 0, 0, 3, 2), disk("C", 4, 0, 3, 0), disk("B", 2, 2.5, 1.2, 1)},
			[]string{"A>C", "A>B", "B>C"},
		},
		{
			"a middle disk overlapping only one of them does not separate",
			[]models.Disk{disk("A", 0, 0, 2, 2), disk("C", 3, 0, 2, 0), disk("B", -3, 0, 2, 1)},
			[]string{"A>C", "A>B"},
		},
		{
			"two middle disks together cover the lens",
			[]models.Disk{disk("A", 0, 0, 3, 3), disk("C", 5, 0, 3, 0), disk("B1", 2.5, 1.3, 1.6, 1), disk("B2", 2.5, -1.3, 1.6, 2)},
			[]string{"A>B1", "A>B2", "B1>C", "B2>B1", "B2>C"},
		},
		{
			"terrain lies at the bottom whatever its z",
			[]models.Disk{{ID: "hill", Kind: "terrain", Terrain: "mountain", X: 0, Y: 0, R: 8, Z: 5}, disk("orc", 7, 0, 2, 0)},
			[]string{"orc>hill"},
		},
		{"same z overlapping: no contact", []models.Disk{disk("a", 0, 0, 2, 0), disk("b", 3, 0, 2, 0)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := contactIDs(NewTable(layoutOf(tc.disks...)))
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("contacts = %v, want %v", got, want)
			}
		})
	}
}

func TestSameLevelOverlapIsWarned(t *testing.T) {
	tb := NewTable(layoutOf(disk("a", 0, 0, 2, 0), disk("b", 3, 0, 2, 0)))
	if len(tb.Warnings()) != 1 {
		t.Fatalf("warnings = %q, want one about a and b", tb.Warnings())
	}
}

// lensCorners returns the two points where circles a and b cross.
func lensCorners(a, b Circle) (Vec, Vec) {
	d := b.C.Sub(a.C).Len()
	along := (d*d + a.R*a.R - b.R*b.R) / (2 * d)
	h := math.Sqrt(a.R*a.R - along*along)
	u := b.C.Sub(a.C).Scale(1 / d)
	m := a.C.Add(u.Scale(along))
	n := Vec{-u.Y, u.X}
	return m.Add(n.Scale(h)), m.Sub(n.Scale(h))
}

// TestSandwichByConstruction builds, for many random pairs, the smallest
// middle disk that covers the lens (its circle through the lens's corners,
// when the lens is thin enough to fit inside it) and one a hair smaller:
// the first keeps the pair apart, the second does not.
func TestSandwichByConstruction(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	built := 0
	for built < 500 {
		ra, rb := 2+rng.Float64()*3, 2+rng.Float64()*3
		a := Circle{Vec{rng.Float64()*100 - 50, rng.Float64()*100 - 50}, ra}
		ang := rng.Float64() * 2 * math.Pi
		d := (ra + rb) * (0.75 + rng.Float64()*0.24)
		b := Circle{a.C.Polar(d, ang), rb}
		p, q := lensCorners(a, b)
		mid := Circle{p.Add(q).Scale(0.5), p.Sub(q).Len() / 2}
		// The circle on the chord covers the lens only when each arc bulges
		// no further than half the chord.
		if a.R+b.R-d > mid.R {
			continue
		}
		built++
		mk := func(m Circle) []string {
			l := layoutOf(disk("top", a.C.X, a.C.Y, a.R, 2), disk("mid", m.C.X, m.C.Y, m.R, 1), disk("bottom", b.C.X, b.C.Y, b.R, 0))
			return contactIDs(NewTable(l))
		}
		exact := mk(mid)
		if slices.Contains(exact, "top>bottom") {
			t.Fatalf("pair %d: a middle disk exactly covering the lens must keep them apart; contacts %v (a=%v b=%v mid=%v)", built, exact, a, b, mid)
		}
		short := mk(Circle{mid.C, mid.R - 1e-4})
		if !slices.Contains(short, "top>bottom") {
			t.Fatalf("pair %d: a middle disk 1 µm too small must leave them in contact; contacts %v", built, short)
		}
		shifted := mk(Circle{mid.C.Add(p.Sub(q).Scale(1e-4 / p.Sub(q).Len())), mid.R})
		if !slices.Contains(shifted, "top>bottom") {
			t.Fatalf("pair %d: a middle disk shifted 1 µm along the chord must leave them in contact; contacts %v", built, shifted)
		}
	}
}

// randomTable makes a crowded table with stacks up to three high.
func randomTable(rng *rand.Rand, n int, size float64) models.Layout {
	l := models.Layout{Version: 1}
	for i := range n {
		x, y := rng.Float64()*size, rng.Float64()*size/2
		l.Disks = append(l.Disks, disk(fmt.Sprintf("d%d", i), x, y, 2+rng.Float64()*3, rng.IntN(3)))
	}
	// Give overlapping pairs distinct levels so the stacking is defined.
	for i := range l.Disks {
		l.Disks[i].Z = l.Disks[i].Z*n + i
	}
	for i := range 3 * n / 2 {
		l.Tokens = append(l.Tokens, models.Token{ID: fmt.Sprintf("t%d", i), Kind: "arrow",
			X: models.Centimetres(rng.Float64() * size), Y: models.Centimetres(rng.Float64() * size / 2), R: 0.8})
	}
	return l
}

func moved(l models.Layout, f func(Vec) Vec) models.Layout {
	m := l.Clone()
	for i := range m.Disks {
		p := f(Vec{float64(m.Disks[i].X), float64(m.Disks[i].Y)})
		m.Disks[i].X, m.Disks[i].Y = models.Centimetres(p.X), models.Centimetres(p.Y)
	}
	for i := range m.Tokens {
		p := f(Vec{float64(m.Tokens[i].X), float64(m.Tokens[i].Y)})
		m.Tokens[i].X, m.Tokens[i].Y = models.Centimetres(p.X), models.Centimetres(p.Y)
	}
	return m
}

func hitsOf(t *Table) []string {
	var out []string
	for k := range t.TokenLen() {
		out = append(out, fmt.Sprint(t.IDs(t.Hits(k))))
	}
	return out
}

func TestGeometryIsInvariantUnderMovingTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 20 {
		l := randomTable(rng, 60, 80)
		base := NewTable(l)
		ang := rng.Float64() * 2 * math.Pi
		shift := Vec{rng.Float64()*200 - 100, rng.Float64()*200 - 100}
		for name, f := range map[string]func(Vec) Vec{
			"translated": func(v Vec) Vec { return v.Add(shift) },
			"rotated":    func(v Vec) Vec { return v.Rotate(ang) },
			"mirrored":   func(v Vec) Vec { return Vec{-v.X, v.Y} },
		} {
			other := NewTable(moved(l, f))
			if got, want := contactIDs(other), contactIDs(base); !slices.Equal(got, want) {
				t.Fatalf("trial %d %s: contacts changed:\n got %v\nwant %v", trial, name, got, want)
			}
			if got, want := hitsOf(other), hitsOf(base); !slices.Equal(got, want) {
				t.Fatalf("trial %d %s: hits changed:\n got %v\nwant %v", trial, name, got, want)
			}
			for i := range base.Len() {
				for j := range base.Len() {
					if d := math.Abs(float64(base.Edge(i, j) - other.Edge(i, j))); d > 1e-9 {
						t.Fatalf("trial %d %s: edge %d-%d changed by %v", trial, name, i, j, d)
					}
				}
			}
		}
	}
}

func TestGeometryIsSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	l := randomTable(rng, 80, 70)
	tb := NewTable(l)
	for i := range tb.Len() {
		for j := range tb.Len() {
			if tb.Edge(i, j) != tb.Edge(j, i) {
				t.Fatalf("edge(%d,%d) = %v but edge(%d,%d) = %v", i, j, tb.Edge(i, j), j, i, tb.Edge(j, i))
			}
			if tb.OnTop(i, j) && tb.OnTop(j, i) {
				t.Fatalf("%d and %d are each on top of the other", i, j)
			}
			if tb.OnTop(i, j) && !tb.Overlap(i, j) {
				t.Fatalf("%d is on %d without overlapping it", i, j)
			}
			if tb.OnTop(i, j) && !slices.Contains(tb.PinnedBy(j), i) {
				t.Fatalf("pins and pinnedBy disagree on %d>%d", i, j)
			}
			if tb.InContact(i, j) != tb.InContact(j, i) {
				t.Fatalf("InContact not symmetric for %d, %d", i, j)
			}
		}
	}
	// Reversing the order of the disks in the file changes nothing but
	// the indices.
	rev := l.Clone()
	slices.Reverse(rev.Disks)
	tr := NewTable(rev)
	got, want := contactIDs(tr), contactIDs(tb)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("contacts depend on the order of the disks in the file")
	}
}

func TestChainsAndRanges(t *testing.T) {
	l := layoutOf(
		disk("a", 0, 0, 2, 0), disk("b", 3, 0, 2, 1), disk("c", 6, 0, 2, 0), // chain a-b-c
		disk("d", 20, 0, 2, 0),                         // alone
		disk("e", 30, 0, 2, 1), disk("f", 33, 0, 2, 0), // chain e-f
	)
	tb := NewTable(l)
	var chains []string
	for _, c := range tb.Chains() {
		chains = append(chains, fmt.Sprint(tb.IDs(c)))
	}
	if want := []string{"[a b c]", "[e f]"}; !slices.Equal(chains, want) {
		t.Errorf("chains = %v, want %v", chains, want)
	}
	if got := tb.IDs(tb.ChainOf(3)); !slices.Equal(got, []string{"d"}) {
		t.Errorf("chain of a lone disk = %v, want [d]", got)
	}
	// d at x=20 r=2: c's edge is 20-6-4 = 10 cm away, e's 30-20-4 = 6 cm.
	if got := tb.IDs(tb.WithinOfDisk(3, 6)); !slices.Equal(got, []string{"e"}) {
		t.Errorf("within 6 cm of d = %v, want [e]", got)
	}
	// f's edge is 33-20-4 = 9 cm away.
	if got := tb.IDs(tb.WithinOfDisk(3, 10)); !slices.Equal(got, []string{"c", "e", "f"}) {
		t.Errorf("within 10 cm of d = %v, want [c e f]", got)
	}
	// From the point (20, 10): d's edge is 8 cm away, e's sqrt(200)-2 ≈ 12.14.
	if got := tb.IDs(tb.WithinOfPoint(models.TablePoint{X: 20, Y: 10}, 8)); !slices.Equal(got, []string{"d"}) {
		t.Errorf("within 8 cm of (20,10) = %v, want [d]", got)
	}
	if got := tb.IDs(tb.WithinOfPoint(models.TablePoint{X: 20, Y: 10}, 12.2)); !slices.Equal(got, []string{"d", "e"}) {
		t.Errorf("within 12.2 cm of (20,10) = %v, want [d e]", got)
	}
}

// TestContactsWithoutADestroyedDisk checks that taking the middle disk of
// a sandwich off the table puts the disks above and below it in contact
// (Diskwars: "les Disks éliminés sont immédiatement retirés"), that the
// disk gone is in no contact, and that with nothing gone the relation is
// the table's own.
func TestContactsWithoutADestroyedDisk(t *testing.T) {
	// Rulebook "En contact", example 1 in a line: A on B on C, B covering
	// the whole lens of A and C.
	tb := NewTable(layoutOf(disk("A", 0, 0, 2.5, 2), disk("B", 1, 0, 2.5, 1), disk("C", 2, 0, 2.5, 0)))
	if got := contactIDs(tb); !slices.Equal(got, []string{"A>B", "B>C"}) {
		t.Fatalf("test layout: contacts %v, want [A>B B>C]", got)
	}
	pins, pinnedBy := tb.ContactsWithout(func(i int) bool { return tb.ID(i) == "B" })
	a, b, c := 0, 1, 2
	if !slices.Equal(pins[a], []int{c}) || !slices.Equal(pinnedBy[c], []int{a}) {
		t.Errorf("without B: A pins %v, C pinned by %v; want [C] and [A]", tb.IDs(pins[a]), tb.IDs(pinnedBy[c]))
	}
	if len(pins[b]) != 0 || len(pinnedBy[b]) != 0 {
		t.Errorf("B, gone, pins %v and is pinned by %v; want nothing", pins[b], pinnedBy[b])
	}
	pins, pinnedBy = tb.ContactsWithout(func(int) bool { return false })
	for i := range tb.Len() {
		if !slices.Equal(pins[i], tb.Pins(i)) || !slices.Equal(pinnedBy[i], tb.PinnedBy(i)) {
			t.Errorf("nothing gone, disk %s: pins %v pinned by %v; the table's %v and %v", tb.ID(i), pins[i], pinnedBy[i], tb.Pins(i), tb.PinnedBy(i))
		}
	}
}
