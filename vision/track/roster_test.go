package track

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tableref/models"
)

// checkIDs fails the test when a tracked layout breaks the id contract of
// table-model.md (ids unique, disks and tokens sharing one space): the
// layout must load as analyze would load it.
func checkIDs(t *testing.T, when string, l models.Layout) {
	t.Helper()
	data, err := models.Marshal(l)
	if err != nil {
		t.Fatalf("%s: marshal: %v", when, err)
	}
	if _, err := models.Parse(data); err != nil {
		t.Fatalf("%s: the tracked layout does not load: %v", when, err)
	}
}

// named is a roster disk: an id and a name at a place.
func named(id, name string, x, y, r float64) models.Disk {
	return models.Disk{ID: id, Name: name, X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r)}
}

func TestAdoptNeverGivesTwoDisksOneID(t *testing.T) {
	// Two disks A and B on the table, then a third laid down (a
	// reinforcement); an arrow token t1 lies by A. The tracker names A
	// and B n1 and n2 (in the order it reads them), and would name the
	// third n3.
	two := []piece{{"A", 10, 10, 2.54, 3}, {"B", 40, 10, 2.54, 3}}
	three := append(slices.Clone(two), piece{"C", 70, 10, 2.54, 3})
	// Each case makes a roster from the ids the tracker gave A and B, and
	// says which id it gives each ("" for none).
	cases := []struct {
		name   string
		roster func(a, b string) (models.Layout, []string)
	}{
		{"the id an unnamed disk holds", func(a, b string) (models.Layout, []string) {
			return models.Layout{Disks: []models.Disk{named(b, "Orc", 10, 10, 2.54)}}, []string{b, ""}
		}},
		{"the ids the next new disks would take", func(a, b string) (models.Layout, []string) {
			return models.Layout{Disks: []models.Disk{named("n3", "Orc", 10, 10, 2.54), named("n4", "Elf", 40, 10, 2.54)}}, []string{"n3", "n4"}
		}},
		{"a token's id", func(a, b string) (models.Layout, []string) {
			return models.Layout{Disks: []models.Disk{named("t1", "Troll", 10, 10, 2.54)}}, []string{"t1", ""}
		}},
		{"the next new disk's id for a disk not on the table", func(a, b string) (models.Layout, []string) {
			return models.Layout{Disks: []models.Disk{named("n3", "Reserve", 90, 50, 3.175), named("orc", "Orc", 10, 10, 2.54)}}, []string{"orc", ""}
		}},
		{"two disks exchanging their ids", func(a, b string) (models.Layout, []string) {
			return models.Layout{Disks: []models.Disk{named(b, "Orc", 10, 10, 2.54), named(a, "Elf", 40, 10, 2.54)}}, []string{b, a}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := NewTracker(Options{})
			rng := rand.New(rand.NewPCG(1, 1))
			withToken := func(ps []piece) models.Layout {
				l := reading(ps, rng, 0)
				l.Tokens = []models.Token{{ID: "t1", Kind: "arrow", X: 13, Y: 10, R: 0.9}}
				return l
			}
			first := tr.Observe(Observation{Layout: withToken(two), Settled: true})
			roster, want := c.roster(idAt(first.Layout, 10, 10), idAt(first.Layout, 40, 10))
			renamed, err := tr.Adopt(roster)
			var unplaced *UnplacedError
			if err != nil && !errors.As(err, &unplaced) {
				t.Fatalf("adopt: %v", err)
			}
			checkIDs(t, "the first ruling renamed", tr.Rename(first.Layout, renamed))
			for step, ps := range [][]piece{two, three, three} {
				up := tr.Observe(Observation{Layout: withToken(ps), Settled: true})
				checkIDs(t, "a later ruling", up.Layout)
				for _, d := range up.Layout.Disks {
					k := slices.IndexFunc(ps, func(p piece) bool { return math.Hypot(float64(d.X)-p.x, float64(d.Y)-p.y) < 1 })
					_, listed := roster.Disk(d.ID)
					switch {
					case k < len(want) && want[k] != "" && d.ID != want[k]:
						t.Errorf("reading %d: disk %s: got id %q, want %q", step+1, ps[k].id, d.ID, want[k])
					case (k < 0 || k >= len(want) || want[k] == "") && listed:
						// Not an unnamed disk, nor a new one, even while the
						// roster disk waits off the table.
						t.Errorf("reading %d: a disk at (%.0f, %.0f) holds %q, an id the roster gives another disk", step+1, d.X, d.Y, d.ID)
					}
				}
			}
		})
	}
}

func TestAdoptRefusesAnUnfitRosterAndChangesNothing(t *testing.T) {
	cases := []struct {
		name  string
		disks []models.Disk
	}{
		{"a disk without an id", []models.Disk{named("", "Orc", 10, 10, 2.54)}},
		{"two disks with one id", []models.Disk{named("orc", "Orc", 10, 10, 2.54), named("orc", "Elf", 40, 10, 2.54)}},
		{"a radius of zero", []models.Disk{named("orc", "Orc", 10, 10, 0)}},
		{"a centre that is not a number", []models.Disk{named("orc", "Orc", math.NaN(), 10, 2.54)}},
	}
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 40, 10, 2.54, 3}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := NewTracker(Options{})
			before := tr.Observe(Observation{Layout: reading(ps, rand.New(rand.NewPCG(2, 2)), 0), Settled: true})
			renamed, err := tr.Adopt(models.Layout{Disks: c.disks})
			var unplaced *UnplacedError
			if err == nil || errors.As(err, &unplaced) || len(renamed) != 0 {
				t.Errorf("got renames %v and error %v, want none and an error about the roster", renamed, err)
			}
			for _, d := range before.Layout.Disks {
				if got, ok := tr.Disk(d.ID); !ok || got.Name != "" {
					t.Errorf("disk %s after a refused roster: got %+v (found %v), want it unchanged", d.ID, got, ok)
				}
			}
		})
	}
}

func TestAdoptNamesWhatItCanAndTheRestWhenTheyAppear(t *testing.T) {
	// The roster lists first a reserve not yet on the table: the disks
	// that are there are named all the same, and the reserve is named
	// when it is laid at its place.
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 40, 10, 2.54, 3}}
	roster := models.Layout{Disks: []models.Disk{named("reserve", "Knights", 70, 40, 3.175), named("orc", "Orc", 10, 10, 2.54), named("elf", "Elf", 40, 10, 2.54)}}
	tr := NewTracker(Options{})
	rng := rand.New(rand.NewPCG(3, 3))
	tr.Observe(Observation{Layout: reading(ps, rng, 0.05), Settled: true})
	_, err := tr.Adopt(roster)
	var unplaced *UnplacedError
	if !errors.As(err, &unplaced) || len(unplaced.Disks) != 1 || unplaced.Disks[0].ID != "reserve" {
		t.Fatalf("adopt: got error %v, want one listing the reserve alone", err)
	}
	for _, want := range []struct {
		x, y float64
		id   string
	}{{10, 10, "orc"}, {40, 10, "elf"}} {
		if d, ok := tr.Disk(want.id); !ok || math.Hypot(float64(d.X)-want.x, float64(d.Y)-want.y) > 1 {
			t.Errorf("disk %s: got %+v (found %v), want it at (%.0f, %.0f)", want.id, d, ok, want.x, want.y)
		}
	}
	// A disk of the reserve's size laid elsewhere is another disk.
	elsewhere := append(slices.Clone(ps), piece{"x", 20, 50, 3.175, 3})
	for range 2 {
		up := tr.Observe(Observation{Layout: reading(elsewhere, rng, 0.05), Settled: true})
		if got := idAt(up.Layout, 20, 50); got == "reserve" {
			t.Fatalf("a disk laid away from the reserve's place: got id reserve")
		}
	}
	atPlace := append(slices.Clone(elsewhere), piece{"r", 70.5, 40, 3.175, 3})
	var news []Event
	var up Update
	for range 2 {
		up = tr.Observe(Observation{Layout: reading(atPlace, rng, 0.05), Settled: true})
		news = append(news, up.Events...)
	}
	d, ok := up.Layout.Disk("reserve")
	if !ok || d.Name != "Knights" || math.Hypot(float64(d.X)-70.5, float64(d.Y)-40) > 1 {
		t.Errorf("the reserve laid at its place: got %+v (found %v), want disk reserve named Knights at (70.5, 40)", d, ok)
	}
	if !slices.ContainsFunc(news, func(e Event) bool { return e.Kind == "new" && e.ID == "reserve" && e.Name == "Knights" }) {
		t.Errorf("got events %+v, want a new disk reserve (Knights)", news)
	}
}

func TestRenameGivesATokenTheRosterTookAFreshID(t *testing.T) {
	tr := NewTracker(Options{})
	l := reading([]piece{{"a", 10, 10, 2.54, 3}}, rand.New(rand.NewPCG(4, 4)), 0)
	l.Tokens = []models.Token{{ID: "t1", Kind: "arrow", X: 13, Y: 10, R: 0.9, Touches: []string{l.Disks[0].ID}}}
	up := tr.Observe(Observation{Layout: l, Settled: true})
	renamed, err := tr.Adopt(models.Layout{Disks: []models.Disk{named("t1", "Troll", 10, 10, 2.54)}})
	if err != nil {
		t.Fatal(err)
	}
	got := tr.Rename(up.Layout, renamed)
	checkIDs(t, "the renamed ruling", got)
	if got.Disks[0].ID != "t1" || got.Tokens[0].ID == "t1" || !slices.Equal(got.Tokens[0].Touches, []string{"t1"}) {
		t.Errorf("got disk %s and token %s touching %v, want disk t1 and a token of another id touching [t1]", got.Disks[0].ID, got.Tokens[0].ID, got.Tokens[0].Touches)
	}
}
