package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"tableref/models"
	"tableref/ui"
)

// seen is one disk as the detector reports it: centre x (y is fixed) and
// radius, in the layout's units.
type seen struct{ x, r float64 }

// detected returns the layout the detector would give for the disks:
// named d1, d2, ... in reading order (left to right on one row).
func detected(ds ...seen) models.Layout {
	ds = slices.Clone(ds)
	slices.SortFunc(ds, func(a, b seen) int { return cmp.Compare(a.x, b.x) })
	l := models.Layout{Version: models.Version}
	for i, d := range ds {
		l.Disks = append(l.Disks, models.Disk{ID: fmt.Sprintf("d%d", i+1), Kind: models.KindUnknown,
			X: models.Centimetres(d.x), Y: 20, R: models.Centimetres(d.r)})
	}
	return l
}

// at lists disks of radius 2.5 at the given x.
func at(xs ...float64) []seen {
	var out []seen
	for _, x := range xs {
		out = append(out, seen{x, 2.5})
	}
	return out
}

// step is one frame: its time since the first and the disks in it.
type step struct {
	t     time.Duration
	disks []seen
}

// idsByX returns "x=id" for each disk of the layout, in its order.
func idsByX(l models.Layout) []string {
	var out []string
	for _, d := range l.Disks {
		out = append(out, fmt.Sprintf("%g=%s", float64(d.X), d.ID))
	}
	return out
}

func TestIDKeeperKeepsIdsAcrossFrames(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 20, 0, 0, 0, time.UTC)
	var slide []step
	for k := range 11 {
		slide = append(slide, step{time.Duration(k) * time.Second / 30, at(20, 50+1.2*float64(k))})
	}
	tests := []struct {
		name  string
		steps []step
		want  []string // the last frame's disks, left to right
	}{
		{"the first frame keeps the detector's reading order",
			[]step{{0, at(20, 50, 80)}},
			[]string{"20=d1", "50=d2", "80=d3"}},
		{"the others keep their ids when a disk leaves",
			[]step{{0, at(20, 50, 80)}, {time.Second, at(50, 80)}},
			[]string{"50=d2", "80=d3"}},
		{"a disk covered for some seconds gets its id back",
			[]step{{0, at(20, 50, 80)}, {time.Second, at(20, 80)}, {8 * time.Second, at(20, 80)}, {9 * time.Second, at(20, 50, 80)}},
			[]string{"20=d1", "50=d2", "80=d3"}},
		{"a disk unseen for longer than keepFor comes back as a new disk",
			[]step{{0, at(20, 50, 80)}, {5 * time.Second, at(20, 80)}, {11 * time.Second, at(20, 80)}, {12 * time.Second, at(20, 50, 80)}},
			[]string{"20=d1", "50=d4", "80=d3"}},
		{"a new disk on the left gets a new id and renames no other",
			[]step{{0, at(50, 80)}, {time.Second, at(20, 50, 80)}},
			[]string{"20=d3", "50=d1", "80=d2"}},
		{"a forgotten disk's id is never given again",
			[]step{{0, at(20, 50)}, {5 * time.Second, at(50)}, {11 * time.Second, at(50)}, {12 * time.Second, at(20, 50)}},
			[]string{"20=d3", "50=d2"}},
		{"a disk slid a little in every frame keeps its id however far it goes",
			slide,
			[]string{"20=d1", "62=d2"}},
		{"a disk that moved more than half its radius out of sight is a new disk",
			[]step{{0, at(50)}, {time.Second, nil}, {2 * time.Second, at(51.3)}},
			[]string{"51.3=d2"}},
		{"a disk that moved less than half its radius out of sight keeps its id",
			[]step{{0, at(50)}, {time.Second, nil}, {2 * time.Second, at(51.2)}},
			[]string{"51.2=d1"}},
		{"two disks of one size that trade places trade ids: the camera sees the same table",
			[]step{{0, at(20, 80)}, {time.Second, nil}, {2 * time.Second, at(20, 80)}},
			[]string{"20=d1", "80=d2"}},
		{"two disks of different sizes that trade places are both new",
			[]step{{0, []seen{{20, 2.5}, {80, 3.5}}}, {time.Second, nil}, {2 * time.Second, []seen{{20, 3.5}, {80, 2.5}}}},
			[]string{"20=d3", "80=d4"}},
		{"a small creature (12 % smaller) where a creature was is another disk",
			[]step{{0, []seen{{50, 2.54}}}, {time.Second, []seen{{50, 2.225}}}},
			[]string{"50=d2"}},
		{"a radius 5 % larger at the same place is the same disk measured again",
			[]step{{0, []seen{{50, 2.5}}}, {time.Second, []seen{{50, 2.625}}}},
			[]string{"50=d1"}},
		// d1 lies at 51.2 and d2 at 50; then 50.4 and 51.3 are seen.
		// Taking the detections in turn, 50.4 would take the first disk
		// within reach, d1, and leave 51.3 (too far from d2) a new disk;
		// the nearest pair (51.3 with d1, 0.1 apart) goes first.
		{"the nearest pairs are matched first",
			[]step{{0, at(51.2)}, {time.Second / 30, at(50, 51.2)}, {2 * time.Second / 30, at(50.4, 51.3)}},
			[]string{"50.4=d2", "51.3=d1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := newIDKeeper()
			var got models.Layout
			for _, s := range tt.steps {
				got = k.Name(detected(s.disks...), t0.Add(s.t))
			}
			if !slices.Equal(idsByX(got), tt.want) {
				t.Errorf("got %v, want %v", idsByX(got), tt.want)
			}
		})
	}
}

func TestIDKeeperNamesTokensApartAndRenamesWhatTheyTouch(t *testing.T) {
	k := newIDKeeper()
	t0 := time.Unix(0, 0)
	frame := func(xs ...float64) models.Layout {
		l := detected(at(xs...)...)
		troll := l.Disks[len(l.Disks)-2] // the disk at 50
		arrow := models.Token{ID: "t1", Kind: "arrow", X: 50, Y: 21, R: 0.8, Touches: []string{troll.ID, "d99"}}
		l.Tokens = []models.Token{arrow}
		l.Disks[0].Target = troll.ID
		return l
	}
	k.Name(frame(20, 50, 80), t0)
	in := frame(50, 80)
	got := k.Name(in, t0.Add(time.Second))
	if in.Disks[0].ID != "d1" || in.Tokens[0].Touches[0] != "d1" {
		t.Errorf("the input was changed: %v, touches %v", idsByX(in), in.Tokens[0].Touches)
	}
	tok := got.Tokens[0]
	if tok.ID != "t1" || !slices.Equal(tok.Touches, []string{"d2"}) {
		t.Errorf("got token %s touching %v, want t1 touching d2 (the disk at 50; d99 is no disk of the frame)", tok.ID, tok.Touches)
	}
	if got.Disks[0].Target != "d2" {
		t.Errorf("got target %q, want d2", got.Disks[0].Target)
	}
	for _, d := range got.Disks {
		if d.ID == tok.ID {
			t.Errorf("a disk and a token are both %s", d.ID)
		}
	}
}

func TestIDKeeperGivesGlitchesNewIdsAndDoesNotRememberThem(t *testing.T) {
	k := newIDKeeper()
	t0 := time.Unix(0, 0)
	var got [][]string
	for i := range 2 {
		l := detected(at(50)...)
		l.Disks = append(l.Disks, models.Disk{ID: "d2", X: models.Centimetres(math.NaN()), Y: 20, R: 2.5})
		l = k.Name(l, t0.Add(time.Duration(i)*time.Second))
		got = append(got, []string{l.Disks[0].ID, l.Disks[1].ID})
	}
	want := [][]string{{"d1", "d2"}, {"d1", "d3"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if n := len(k.disks.kept); n != 1 {
		t.Errorf("got %d disks remembered, want 1 (the glitch is not)", n)
	}
}

// TestIDKeeperMatchesInTheImageAcrossACalibration: a new calibration
// changes the layout's units but not where a disk lies in the image, so
// a disk with its image circle keeps its id; one without is new.
func TestIDKeeperMatchesInTheImageAcrossACalibration(t *testing.T) {
	k := newIDKeeper()
	t0 := time.Unix(0, 0)
	pixels := func(units float64) models.Layout {
		return models.Layout{Version: models.Version, Disks: []models.Disk{
			{ID: "d1", X: models.Centimetres(200 * units), Y: 100, R: models.Centimetres(30 * units),
				Pixel: &models.ImageCircle{PX: 200, PY: 100, PR: 30}},
			{ID: "d2", X: models.Centimetres(400 * units), Y: 100, R: models.Centimetres(30 * units)},
		}}
	}
	k.Name(pixels(1), t0)
	k.UnitsChanged()
	got := k.Name(pixels(0.1), t0.Add(time.Second))
	if ids := []string{got.Disks[0].ID, got.Disks[1].ID}; !slices.Equal(ids, []string{"d1", "d3"}) {
		t.Errorf("got %v, want d1 (its image circle unchanged) and d3 (new: its old place was in other units)", ids)
	}
}

// TestIDKeeperMemoryIsBounded floods the keeper with phantoms, each seen
// once at a new place, while a real disk is hidden for three seconds:
// the memory stays within keepMax and the real disk, seen in many frames
// before, is not the one forgotten.
func TestIDKeeperMemoryIsBounded(t *testing.T) {
	k := newIDKeeper()
	t0 := time.Unix(0, 0)
	frame := 0
	next := func(ds ...seen) models.Layout {
		frame++
		return k.Name(detected(ds...), t0.Add(time.Duration(frame)*10*time.Millisecond))
	}
	for range 100 {
		next(at(500)...)
	}
	for i := range 300 {
		var ds []seen
		for j := range 3 {
			ds = append(ds, seen{x: float64(1000 + 10*(3*i+j)), r: 2.5})
		}
		next(ds...)
		if n := len(k.disks.kept); n > keepMax {
			t.Fatalf("frame %d: got %d disks remembered, want at most %d", frame, n, keepMax)
		}
	}
	if got := next(at(500)...); got.Disks[0].ID != "d1" {
		t.Errorf("got %s for the disk back from under the hand, want d1", got.Disks[0].ID)
	}
}

// TestIDKeeperKeepsCorrectionsOnTheirDisks plays the review's two cases
// through the keeper and the UI's corrections, as the window applies
// them to every frame: a name stays on its disk when another leaves, and
// a phantom deleted does not take a real disk with it when the disks are
// renumbered.
func TestIDKeeperKeepsCorrectionsOnTheirDisks(t *testing.T) {
	t0 := time.Unix(0, 0)
	tests := []struct {
		name   string
		first  []seen
		fix    float64 // the x of the disk corrected
		delete bool    // the fix deletes it (a phantom), else names it
		then   [][]seen
		want   []string // the last frame after corrections: x=name
	}{
		{"a name stays on its disk when the disk before it leaves",
			at(20, 50, 80), 50, false,
			[][]seen{at(50, 80)},
			[]string{"50=Cave Troll", "80="}},
		{"a deleted phantom takes no real disk with it when disks are renumbered",
			at(20, 50, 80), 80, true,
			[][]seen{at(20, 50), at(10, 20, 50)},
			[]string{"10=", "20=", "50="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := newIDKeeper()
			c := ui.Corrections{Version: 1}
			l := k.Name(detected(tt.first...), t0)
			for _, d := range l.Disks {
				if float64(d.X) != tt.fix {
					continue
				}
				f := c.Fix(d)
				if tt.delete {
					f.Delete = true
				} else {
					name := "Cave Troll"
					f.Name = &name
				}
			}
			out, c := c.Apply(l)
			for i, ds := range tt.then {
				out, c = c.Apply(k.Name(detected(ds...), t0.Add(time.Duration(i+1)*time.Second)))
			}
			var got []string
			for _, d := range out.Disks {
				got = append(got, fmt.Sprintf("%g=%s", float64(d.X), d.Name))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
