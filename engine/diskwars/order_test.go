package diskwars

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// exposedTable is the reviewer's table (/tmp/rev-dw/exposed.json): W (bob)
// lies on D (ann), which covers Y (bob); X2 (ann) lies on D, its friend,
// and on Y2 (bob). W and X2 are ready at once; W destroys D, which
// uncovers Y under X2.
func exposedTable() models.Layout {
	return layoutOf(
		fighter("W", "bob", 15.6, 20, 2.5, 3, 5, 1, 3),
		fighter("X2", "ann", 24, 20, 2.5, 3, 3, 1, 3),
		fighter("D", "ann", 20, 20, 2.5, 2, 1, 1, 3),
		fighter("Y", "bob", 20, 20, 2.0, 1, 1, 5, 2),
		fighter("Y2", "bob", 28, 20, 2.5, 1, 1, 1, 4),
	)
}

// TestCombatsReadyTogetherKeepTheirFronts: "Les combats sont toujours
// résolus du dessus vers le dessous" and "Comme un Disk ne peut mener
// qu'une attaque par tour, le Disk B se retrouve bloqué par C et ne peut
// rien faire ce tour-ci" (Combats multiples, rule 1 and example 2,
// shared/seeds/004_7e89a31e83c7ed72.txt). W's combat and X2's are ready
// together: X2 fights the front it had then, Y2; Y, uncovered when W
// destroys D, is not struck by X2, which has made its one attack. In
// either order of the disks in the file.
func TestCombatsReadyTogetherKeepTheirFronts(t *testing.T) {
	l := exposedTable()
	swapped := exposedTable()
	swapped.Disks[0], swapped.Disks[1] = swapped.Disks[1], swapped.Disks[0]
	for name, l := range map[string]models.Layout{"as listed": l, "W and X2 swapped": swapped} {
		t.Run(name, func(t *testing.T) {
			r := resolve(t, l)
			if !reflect.DeepEqual(r.Casualties, []string{"D"}) {
				t.Errorf("casualties: got %v, want [D]", r.Casualties)
			}
			if want := map[string]int{"W": 1, "X2": 1, "Y2": 3}; !reflect.DeepEqual(r.Damage, want) {
				t.Errorf("damage: got %v, want %v", r.Damage, want)
			}
			for _, c := range r.Combats {
				for _, s := range c.Strikes {
					if s.To == "Y" || s.From == "Y" {
						t.Errorf("combat %s: got the strike %s -> %s, want Y out of every combat", c.ID, s.From, s.To)
					}
				}
			}
		})
	}
}

// meleeOutput is what the Combat phase decides, as the report shows it.
type meleeOutput struct {
	Melee         *engine.Melee
	Damage        map[string]int
	Engagements   []engine.Engagement
	ResolveBefore [][2]string
	Hits          []engine.Hit
	Combats       []Combat
	Blocked       []string
}

func meleeOf(t *testing.T, l models.Layout) string {
	t.Helper()
	o, err := Ruleset{}.Analyze(engine.NewTable(l))
	if err != nil {
		t.Fatal(err)
	}
	d := o.Details.(Details)
	checkInvariants(t, l, d.Result)
	blocked := append([]string(nil), d.Blocked...)
	slices.Sort(blocked)
	b, err := json.Marshal(meleeOutput{o.Melee, o.Damage, o.Engagements, o.ResolveBefore, o.Hits, d.Combats, blocked})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMeleeIndependentOfDiskOrder: one physical table, one outcome. The
// order of the disks in a layout file is the order vision found them in;
// the casualties, wounds, damage, combats and strikes must not depend on
// it. Every permutation for small tables, seeded ones for larger.
func TestMeleeIndependentOfDiskOrder(t *testing.T) {
	tables := map[string]models.Layout{
		"exposed (reviewer)":    exposedTable(),
		"spell sandwich":        spellSandwich(),
		"ties on toughness":     tiesTable(),
		"two killed by a arrow": arrowTwoTable(),
	}
	for _, tc := range append(bookCombats, ruleCombats...) {
		tables[tc.name] = layoutOf(tc.disks...)
	}
	turn, err := models.Load("testdata/turn.json")
	if err != nil {
		t.Fatal(err)
	}
	tables["testdata/turn.json"] = turn
	rng := rand.New(rand.NewPCG(4, 7))
	for name, l := range tables {
		t.Run(name, func(t *testing.T) {
			want := meleeOf(t, l)
			for _, p := range permutations(len(l.Disks), 120, rng) {
				m := l.Clone()
				for k, i := range p {
					m.Disks[k] = l.Clone().Disks[i]
				}
				if got := meleeOf(t, m); got != want {
					t.Fatalf("disk order %v:\ngot  %s\nwant %s", p, got, want)
				}
			}
		})
	}
}

// tiesTable: an attacker on two defenders with the same toughness left,
// and a reckless one: the default choice must not follow the file's order.
func tiesTable() models.Layout {
	return layoutOf(
		fighter("p", "b", 0, 0, 2.5, 0, 1, 1, 3),
		fighter("q", "b", 5.2, 0, 2.5, 0, 1, 1, 3),
		fighter("att", "a", 2.6, 1, 2.5, 1, 3, 1, 5),
		fighter("r1", "b", 30, 0, 2.5, 0, 1, 1, 2),
		fighter("r2", "b", 35.2, 0, 2.5, 0, 1, 1, 2),
		fighter("rk", "a", 32.6, 1, 2.5, 1, 2, 1, 5, KeywordReckless),
	)
}

// arrowTwoTable: one arrow on two creatures side by side, both destroyed.
func arrowTwoTable() models.Layout {
	l := layoutOf(
		fighter("m", "b", 0, 0, 2.5, 0, 1, 1, 2),
		fighter("n", "b", 5.2, 0, 2.5, 0, 1, 1, 2),
		fighter("o", "a", 7, 3, 2.5, 1, 1, 1, 2),
	)
	l.Tokens = []models.Token{arrowAt("t1", 2.6, 0)}
	return l
}

// permutations returns every permutation of n indices when there are at
// most limit of them, else limit seeded shuffles and the reversal.
func permutations(n, limit int, rng *rand.Rand) [][]int {
	id := make([]int, n)
	for i := range id {
		id[i] = i
	}
	var out [][]int
	var gen func(k int)
	gen = func(k int) {
		if len(out) > limit {
			return
		}
		if k == n {
			out = append(out, append([]int(nil), id...))
			return
		}
		for i := k; i < n; i++ {
			id[k], id[i] = id[i], id[k]
			gen(k + 1)
			id[k], id[i] = id[i], id[k]
		}
	}
	gen(0)
	if len(out) <= limit {
		return out
	}
	out = out[:0]
	for range limit {
		out = append(out, rng.Perm(n))
	}
	rev := make([]int, n)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	return append(out, rev)
}

// TestTieBreakReadsIDNumbers: an attacker with two equal disks in its
// front strikes "the smaller id" (docs/diskwars.md, Choices), and d9 is
// smaller than d10 as players number their disks, not as bytes compare.
func TestTieBreakReadsIDNumbers(t *testing.T) {
	l := layoutOf(
		fighter("A", "ann", 20, 20, 2.5, 2, 3, 1, 5),
		fighter("d10", "bob", 24, 20, 2.5, 1, 1, 1, 4),
		fighter("d9", "bob", 16, 20, 2.5, 1, 1, 1, 4),
	)
	r := resolve(t, l)
	var got []string
	for _, c := range r.Combats {
		for _, s := range c.Strikes {
			if s.From == "A" {
				got = append(got, s.To)
			}
		}
		if c.ID != "" && !slices.Equal(c.Defenders, []string{"d9", "d10"}) {
			t.Errorf("combat %s: defenders listed %v, want [d9 d10]", c.ID, c.Defenders)
		}
	}
	if !slices.Equal(got, []string{"d9"}) {
		t.Errorf("A strikes %v, want [d9]", got)
	}
}
