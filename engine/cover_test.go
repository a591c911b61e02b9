package engine

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"tableref/models"
)

// ringTable is a lens (A over B) with four middle disks in a ring round
// its centre: radius rho at distance 2 cm from it, so that rho < 2 leaves
// a hole in the middle of the lens and rho > 2 closes it; the ring covers
// the lens's border either way. With copies, every middle disk has an
// exact copy stacked on it, as a second disk put on the first.
func ringTable(rho float64, copies bool) models.Layout {
	ds := []models.Disk{disk("A", 0, 0, 3, 20), disk("B", 1, 0, 3, 0)}
	for k := range 4 {
		a := float64(k) * math.Pi / 2
		x, y := 0.5+2*math.Cos(a), 2*math.Sin(a)
		ds = append(ds, disk(fmt.Sprintf("C%d", k), x, y, rho, 1+k))
		if copies {
			ds = append(ds, disk(fmt.Sprintf("copy%d", k), x, y, rho, 10+k))
		}
	}
	return layoutOf(ds...)
}

// TestAHoleInTheLensKeepsTheContact follows the table model's contact
// rule (shared/spec/table-model.md, "Geometry", "Contact / pinning"): A
// is in contact with B unless the lens is *entirely* covered by the disks
// between them. A ring of middle disks covering the lens's border but
// leaving a hole in its middle does not keep them apart, and stacking an
// exact copy on each middle disk covers nothing more.
func TestAHoleInTheLensKeepsTheContact(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rho     float64
		copies  bool
		contact bool
	}{
		{"a ring that closes over the lens's middle separates", 2.02, false, false},
		{"a ring with a hole in the middle does not", 1.98, false, true},
		{"the closed ring with a copy on every disk separates", 2.02, true, false},
		{"the ring with a hole and a copy on every disk does not", 1.98, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Contains(contactIDs(NewTable(ringTable(tc.rho, tc.copies))), "A>B")
			if got != tc.contact {
				t.Errorf("A on B: got %v, want %v", got, tc.contact)
			}
		})
	}
}

func TestWithoutContainedKeepsOneOfEachDisk(t *testing.T) {
	big := Circle{Vec{0, 0}, 3}
	small := Circle{Vec{1, 0}, 1}
	other := Circle{Vec{5, 0}, 1}
	got := withoutContained([]Circle{small, big, other, big, {Vec{5, 1e-9}, 1}})
	if want := []Circle{big, other}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
