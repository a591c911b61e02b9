package diskwars

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

func moved(l models.Layout, id string, x, y float64) models.Layout {
	out := l.Clone()
	for k := range out.Disks {
		if out.Disks[k].ID == id {
			out.Disks[k].X, out.Disks[k].Y = models.Centimetres(x), models.Centimetres(y)
			out.Disks[k].Z = 5
		}
	}
	return out
}

func ring(owner string, n int, radius, r float64, flying bool) []models.Disk {
	var out []models.Disk
	for k := range n {
		a := 2 * math.Pi * float64(k) / float64(n)
		d := fighter("ring"+string(rune('a'+k)), owner, radius*math.Cos(a), radius*math.Sin(a), r, 0, 1, 1, 1)
		d.Flying = flying
		out = append(out, d)
	}
	return out
}

func TestCheckMove(t *testing.T) {
	// r = 2.5: one flip moves the centre 5 cm.
	archer := fighter("archer", "elves", 0, 0, 2.5, 0, 1, 1, 2) // movement 3
	orc := fighter("orc", "orcs", 19.5, 0, 2.5, 0, 1, 1, 2)
	base := layoutOf(archer, orc)
	flyer := archer
	flyer.Flying = true
	for _, tc := range []struct {
		name    string
		before  models.Layout
		x, y    float64
		bonus   int
		legal   bool
		flips   int
		attack  bool
		problem string
	}{
		// "Action : se déplacer": the Elf Archer, movement 3, goes from A
		// to B, C and D, one flip each: three flips, all its movement.
		{name: "Archer elfe: A to D in three flips", before: base, x: 14, y: 0, legal: true, flips: 3},
		{name: "one flip is one diameter", before: base, x: 0, y: 5, legal: true, flips: 1},
		{name: "less than a diameter takes two flips", before: base, x: 3, y: 0, legal: true, flips: 2},
		{name: "four diameters is beyond movement 3", before: base, x: 0, y: -20, flips: 4, problem: "needs 4 flips"},
		{name: "the Elf Bard's +3 movement makes it legal", before: base, x: 0, y: -20, bonus: 3, legal: true, flips: 4},
		{name: "ending on an enemy is an attack", before: base, x: 15, y: 0, legal: true, flips: 3, attack: true},
		{name: "a disk stops on the first disk it overlaps: a ring of friends cannot be crossed",
			before: layoutOf(append([]models.Disk{archer}, ring("elves", 8, 5, 2.5, false)...)...), x: 15, y: 0, flips: -1, problem: "no path"},
		{name: "a flyer passes over non-flying disks",
			before: layoutOf(append([]models.Disk{flyer}, ring("orcs", 8, 5, 2.5, false)...)...), x: 15, y: 0, legal: true, flips: 3},
		{name: "a flyer stops on an enemy flyer",
			before: layoutOf(append([]models.Disk{flyer}, ring("orcs", 8, 5, 2.5, true)...)...), x: 15, y: 0, flips: -1, problem: "no path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			after := moved(tc.before, "archer", tc.x, tc.y)
			m, err := CheckMove(tc.before, after, MoveOptions{Bonus: tc.bonus})
			if err != nil {
				t.Fatal(err)
			}
			if m.Legal != tc.legal || m.MinFlips != tc.flips || m.Attack != tc.attack {
				t.Errorf("got legal %v flips %d attack %v (%v), want legal %v flips %d attack %v", m.Legal, m.MinFlips, m.Attack, m.Problems, tc.legal, tc.flips, tc.attack)
			}
			if tc.problem != "" && (len(m.Problems) == 0 || !strings.Contains(strings.Join(m.Problems, "; "), tc.problem)) {
				t.Errorf("problems: got %v, want one with %q", m.Problems, tc.problem)
			}
		})
	}
}

func TestCheckMoveRefusals(t *testing.T) {
	a := fighter("a", "x", 0, 0, 2.5, 0, 1, 1, 2)
	on := fighter("on", "y", 3, 0, 2.5, 1, 1, 1, 2)
	l := layoutOf(a, on, fighter("c", "x", 40, 0, 2.5, 0, 1, 1, 2))
	// "Règles de déplacement": a disk another lies on is blocked.
	m, err := CheckMove(l, moved(l, "a", -10, 0), MoveOptions{})
	if err != nil || m.Legal || !strings.Contains(strings.Join(m.Problems, ";"), "blocked by on") {
		t.Errorf("blocked disk: got %+v, %v, want illegal, blocked by on", m, err)
	}
	two := moved(moved(l, "a", -10, 0), "c", 50, 0)
	if _, err := CheckMove(l, two, MoveOptions{}); err == nil {
		t.Errorf("two disks moved: got no error")
	}
	if _, err := CheckMove(l, l, MoveOptions{}); err == nil {
		t.Errorf("nothing moved: got no error")
	}
}

func TestElfBardRange(t *testing.T) {
	// "Action : utiliser une Compétence spéciale", the Elf Bard: activate
	// to give +3 movement this turn to a non-activated disk within 30 cm.
	bard := fighter("bard", "elves", 0, 0, 2.5, 0, 1, 1, 2)
	near := fighter("near", "elves", 30, 0, 2.5, 0, 1, 1, 2) // edge 25
	done := fighter("done", "elves", 0, 20, 2.5, 0, 1, 1, 2)
	done.Activated = true
	far := fighter("far", "elves", 0, -36, 2.5, 0, 1, 1, 2) // edge 31
	got := NonActivatedWithin(engine.NewTable(layoutOf(bard, near, done, far)), 0, 30)
	if want := []string{"near"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func BenchmarkCheckMove(b *testing.B) {
	before := layoutOf(append([]models.Disk{fighter("archer", "elves", 0, 0, 2.5, 0, 1, 1, 2)}, ring("elves", 8, 5, 2.5, false)...)...)
	before.Disks[0].Stats["movement"] = 6
	after := moved(before, "archer", 25, 0)
	for b.Loop() {
		if _, err := CheckMove(before, after, MoveOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckMoveAroundObstacles(b *testing.B) {
	mover := fighter("archer", "elves", 0, 0, 2.5, 0, 1, 1, 2)
	mover.Stats["movement"] = 6
	disks := []models.Disk{mover}
	for k := range 6 {
		disks = append(disks, fighter("wall"+string(rune('a'+k)), "elves", 12, float64(k-3)*5, 2.5, 0, 1, 1, 1))
	}
	before := layoutOf(disks...)
	after := moved(before, "archer", 25, 0)
	for b.Loop() {
		if _, err := CheckMove(before, after, MoveOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
