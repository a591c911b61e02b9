package engine

// How the sandwich rule is computed
//
// A (above) is in contact with B (below) when they overlap and the lens
// L = A ∩ B is not entirely covered by the disks C1..Cn lying strictly
// between them. The test is exact, on the circles themselves, with no
// raster:
//
// L is covered by U = C1 ∪ ... ∪ Cn if and only if
//
//  1. the boundary of L (the arc of A inside B and the arc of B inside A)
//     lies in U, and
//  2. for every Ci, the part of its circle strictly inside L lies in the
//     union of the other Cj.
//
// Why: if some part R of L were left uncovered, its border would be made
// of pieces of the boundary of L (excluded by 1) or of pieces of circles
// Ci running through the inside of L, with R on their outer side; a point
// of such a piece is covered by no other Cj (excluded by 2). Conversely,
// 1 and 2 hold whenever L is covered.
//
// The proof needs every Ci to show on the border of the union: a circle
// lying within another (or a second copy of one, as when two disks are
// stacked exactly) would vouch for the other's circle in test 2 while
// the hole beside them stays open. Such disks add nothing to the union,
// so they are left out first (withoutContained).
//
// Each test is a union of angular intervals on one circle: the points of
// circle c within a disk (p, R) form one arc whose half-angle comes from
// the law of cosines (arcInside). The cost is O(n² log n) for n disks
// between A and B, and n is rarely more than two.
//
// Tolerance: a point within Epsilon of a covering disk counts as covered,
// so a middle disk that covers the lens exactly (its circle through the
// lens's corners) keeps A and B apart, and one a hair smaller does not.

// Epsilon is the tolerance of the contact rule, in centimetres: ten
// nanometres, far below what any camera or tape measure can see.
const Epsilon = 1e-6

// arcTol is the angle below which an uncovered piece of a circle is taken
// for rounding noise, in radians.
const arcTol = 1e-9

// LensCovered reports whether the lens a ∩ b is covered by the union of
// the disks in between. When a and b do not overlap there is no lens and
// it reports true.
func LensCovered(a, b Circle, between []Circle) bool {
	if !Overlap(a, b) {
		return true
	}
	between = withoutContained(between)
	if len(between) == 0 {
		return false
	}
	// 1. The boundary of the lens.
	boundary := []struct {
		on    Circle
		inset arcSet
	}{
		{a, arcInside(a, b.C, b.R)},
		{b, arcInside(b, a.C, a.R)},
	}
	for _, part := range boundary {
		if !coveredOn(part.on, part.inset, between, -1) {
			return false
		}
	}
	// 2. Every circle between, where it runs through the inside of the lens.
	for i, c := range between {
		inside := intersect(arcInside(c, a.C, a.R-Epsilon), arcInside(c, b.C, b.R-Epsilon))
		if !coveredOn(c, inside, between, i) {
			return false
		}
	}
	return true
}

// coveredOn reports whether the angles want of circle on are all within
// Epsilon of one of the disks cs, leaving out cs[skip].
func coveredOn(on Circle, want arcSet, cs []Circle, skip int) bool {
	if want.length() <= arcTol {
		return true
	}
	var cover arcSet
	for j, c := range cs {
		if j != skip {
			cover = union(cover, arcInside(on, c.C, c.R+Epsilon))
		}
	}
	return minus(want, cover).length() <= arcTol
}

// withoutContained returns the disks of cs that lie within no other one
// (to Epsilon), keeping the first of disks that are one and the same.
// The union is unchanged, to Epsilon.
func withoutContained(cs []Circle) []Circle {
	out := make([]Circle, 0, len(cs))
	for i, c := range cs {
		redundant := false
		for j, d := range cs {
			if j != i && within(c, d) && (j < i || !within(d, c)) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, c)
		}
	}
	return out
}

// within reports whether disk c lies inside disk d, to Epsilon.
func within(c, d Circle) bool { return c.C.Sub(d.C).Len()+c.R <= d.R+Epsilon }
