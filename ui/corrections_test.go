package ui

import (
	"image"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tableref/models"
)

// fullCorrections sets every field of every kind of fix, so that a field
// Clone forgets shows up.
func fullCorrections() Corrections {
	z, r, n := 2, 3.2, 4
	return Corrections{Version: 1,
		Disks: []DiskFix{{ID: "d1", At: &[2]float64{10, 20}, Delete: true, Name: ptr("Troll"), Owner: ptr("bob"),
			Side: ptr("evil"), Faction: ptr("orcs"), Kind: ptr("creature"), Z: &z, R: &r,
			Stats: map[string]int{"attack": 5}, Keywords: []string{"berserk"}, MissileKind: ptr("arrow"), MissileCount: &n}},
		Tokens: []TokenFix{{ID: "t1", At: &[2]float64{1, 2}, Delete: true, Kind: ptr("arrow")}},
		Added: []AddDisk{{ID: "added-1", Name: "Scout", Owner: "alice", Side: "good", Faction: "elves", Kind: "creature",
			X: 50, Y: 40, R: 2.5, Z: 1, Stats: map[string]int{"attack": 2}, Keywords: []string{"swift"}}},
	}
}

// unset returns the names of the fields of v (a struct) left at zero.
func unset(v any) []string {
	var out []string
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if rv.Field(i).IsZero() {
			out = append(out, rv.Type().Field(i).Name)
		}
	}
	return out
}

func TestCloneCopiesEveryFieldDeeply(t *testing.T) {
	c := fullCorrections()
	for _, v := range []any{c.Disks[0], c.Tokens[0], c.Added[0]} {
		if u := unset(v); len(u) > 0 {
			t.Fatalf("the fixture leaves %T fields %v unset: set them so that Clone is checked on them", v, u)
		}
	}
	got := c.Clone()
	if !reflect.DeepEqual(got, c) {
		t.Fatalf("got %+v, want %+v", got, c)
	}
	*got.Disks[0].Name, *got.Disks[0].At = "Ogre", [2]float64{0, 0}
	got.Disks[0].Stats["attack"], got.Disks[0].Keywords[0] = 1, "x"
	*got.Tokens[0].Kind, got.Added[0].Stats["attack"], got.Added[0].Keywords[0] = "bolt", 9, "x"
	if !reflect.DeepEqual(c, fullCorrections()) {
		t.Errorf("changing the clone changed the original: got %+v", c)
	}
}

// TestAnEmptiedListClearsAfterCloneSaveAndLoad: an empty keywords list or
// stats map clears the detected ones, an absent one leaves them, and both
// survive Clone, a save and a load. Files written before the distinction
// (no field, or a non-empty one) read as they did.
func TestAnEmptiedListClearsAfterCloneSaveAndLoad(t *testing.T) {
	detected := disk("d1", "bob", 20, 20, 2.5, 0)
	detected.Keywords, detected.Stats = []string{"berserk"}, models.Stats{"attack": 5}
	l := layoutOf(detected)
	tests := []struct {
		name         string
		fix          DiskFix
		keywords     []string
		stats        models.Stats
		wantInFile   string
		absentInFile string
	}{
		{"emptied lists clear", DiskFix{ID: "d1", Name: ptr("x"), Keywords: []string{}, Stats: map[string]int{}},
			nil, nil, `"keywords": []`, ""},
		{"absent lists leave the detection", DiskFix{ID: "d1", Name: ptr("x")},
			[]string{"berserk"}, models.Stats{"attack": 5}, `"name": "x"`, "keywords"},
		{"given lists replace", DiskFix{ID: "d1", Keywords: []string{"swift"}, Stats: map[string]int{"attack": 2}},
			[]string{"swift"}, models.Stats{"attack": 2}, `"swift"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Corrections{Version: 1, Disks: []DiskFix{tt.fix}}
			path := filepath.Join(t.TempDir(), "c.json")
			if err := c.Clone().Save(path); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if !strings.Contains(string(data), tt.wantInFile) || tt.absentInFile != "" && strings.Contains(string(data), tt.absentInFile) {
				t.Errorf("file: got\n%s\nwant %q in it and not %q", data, tt.wantInFile, tt.absentInFile)
			}
			loaded, err := LoadCorrections(path)
			if err != nil {
				t.Fatal(err)
			}
			for how, cc := range map[string]Corrections{"cloned": c.Clone(), "saved and loaded": loaded.Clone()} {
				out, _ := cc.Apply(l)
				d := out.Disks[0]
				if len(d.Keywords) != len(tt.keywords) || len(d.Keywords) > 0 && d.Keywords[0] != tt.keywords[0] {
					t.Errorf("%s: got keywords %v, want %v", how, d.Keywords, tt.keywords)
				}
				if !reflect.DeepEqual(map[string]int(d.Stats), map[string]int(tt.stats)) && (len(d.Stats) > 0 || len(tt.stats) > 0) {
					t.Errorf("%s: got stats %v, want %v", how, d.Stats, tt.stats)
				}
			}
		})
	}
}

// TestTheFormClearsEmptiedStatsAndKeywords: the form holds the whole
// corrected disk, so an emptied entry is a correction to none.
func TestTheFormClearsEmptiedStatsAndKeywords(t *testing.T) {
	u := newTestUI(t)
	l := skirmish()
	l.Disks[2].Stats, l.Disks[2].Keywords = models.Stats{"attack": 4}, []string{"swift"}
	u.Feed(frameOf(t, l))
	u.Step()
	if err := u.correctDisk("knight", formFix{name: "Knight", owner: "blue", z: "0", kind: "creature"}); err != nil {
		t.Fatal(err)
	}
	u.Step()
	u.mu.Lock()
	d, _ := u.layout.Disk("knight")
	u.mu.Unlock()
	if len(d.Stats) != 0 || len(d.Keywords) != 0 {
		t.Errorf("after emptying stats and keywords in the form: got %v %v, want none", d.Stats, d.Keywords)
	}
}

// TestAGlitchedPositionNeverEntersTheCorrections: a detection at a
// position that is not a number, infinite or absurdly far keeps each
// fix's last good position, so cloning, saving and loading keep every fix.
func TestAGlitchedPositionNeverEntersTheCorrections(t *testing.T) {
	glitches := []struct {
		name string
		x    float64
	}{{"not a number", math.NaN()}, {"plus infinity", math.Inf(1)}, {"minus infinity", math.Inf(-1)}, {"beyond 1e9 cm", 2e9}}
	for _, g := range glitches {
		bad := g.x
		t.Run(g.name, func(t *testing.T) {
			good := layoutOf(disk("d1", "", 20, 20, 2.5, 0), disk("d2", "", 50, 20, 2.5, 0))
			c := Corrections{Version: 1}
			c.Fix(good.Disks[0]).Name = ptr("Troll")
			c.Fix(good.Disks[1]).Name = ptr("Archers")
			glitch := layoutOf(disk("d1", "", 20, 20, 2.5, 0), disk("d2", "", bad, 20, 2.5, 0))
			_, c = c.Apply(glitch)
			if at := c.Disks[1].At; at == nil || *at != [2]float64{50, 20} {
				t.Errorf("d2's position after the glitch: got %v, want the last good one (50, 20)", at)
			}
			_, c = c.Apply(good)
			if got := len(c.Clone().Disks); got != 2 {
				t.Fatalf("after the glitch and a good frame: got %d fixes, want 2", got)
			}
			path := filepath.Join(t.TempDir(), "c.json")
			if err := c.Save(path); err != nil {
				t.Fatal(err)
			}
			back, err := LoadCorrections(path)
			if err != nil || len(back.Disks) != 2 {
				t.Errorf("saved and loaded: got %d fixes, %v; want 2, no error", len(back.Disks), err)
			}
			// A fix first made on the glitched disk keeps its id only.
			var fresh Corrections
			if f := fresh.Fix(glitch.Disks[1]); f.At != nil {
				t.Errorf("a fix made on the glitched disk: got position %v, want none", *f.At)
			}
		})
	}
}

// TestSaveWritesOnlyWhatLoadAccepts: corrections LoadCorrections would
// refuse are not written, and the file already there stays.
func TestSaveWritesOnlyWhatLoadAccepts(t *testing.T) {
	tests := []struct {
		name string
		c    Corrections
	}{
		{"a position beyond 1e9 cm", Corrections{Disks: []DiskFix{{ID: "d1", At: &[2]float64{2e9, 1}, Name: ptr("x")}}}},
		{"a radius of 1e6 cm", Corrections{Disks: []DiskFix{{ID: "d1", R: func() *float64 { r := 1e6; return &r }()}}}},
		{"an added disk at NaN", Corrections{Added: []AddDisk{{ID: "added-1", X: math.NaN(), Y: 1, R: 2.5}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.json")
			keep := Corrections{Version: 1, Disks: []DiskFix{{ID: "d9", Name: ptr("kept")}}}
			if err := keep.Save(path); err != nil {
				t.Fatal(err)
			}
			if err := tt.c.Save(path); err == nil {
				t.Errorf("got no error, want the save refused")
			}
			back, err := LoadCorrections(path)
			if err != nil || len(back.Disks) != 1 || *back.Disks[0].Name != "kept" {
				t.Errorf("the file before: got %+v, %v; want it kept", back, err)
			}
		})
	}
}

// TestAddingAMissedDiskFromAGlitchedFitAddsNothing: a frame whose pixel
// circles cannot be fitted (a NaN) maps a click to no table point; no disk
// is added and the corrections file stays loadable.
func TestAddingAMissedDiskFromAGlitchedFitAddsNothing(t *testing.T) {
	u := newTestUI(t)
	l := layoutOf(disk("a", "x", 10, 10, 2, 0), disk("b", "y", 30, 10, 2, 0))
	l.Disks[0].Pixel = &models.ImageCircle{PX: math.NaN(), PY: 1, PR: 20}
	u.Feed(Frame{Image: image.NewRGBA(image.Rect(0, 0, 640, 480)), Layout: l, Seq: 1, Time: time.Unix(0, 0)})
	u.Step()
	u.startAdd()
	u.tapped(Pixel{320, 240})
	u.Step()
	if c := u.Corrections(); len(c.Added) != 0 {
		t.Errorf("got added disks %+v, want none", c.Added)
	}
	if got := u.w.status.Text; !strings.Contains(got, "cannot add a disk there") {
		t.Errorf("status: got %q, want it to say the disk cannot be added", got)
	}
}

// TestAddedDiskIdsAreNeverReused: removing an added disk drops its fixes,
// and the next one gets a new id, also after loading a corrections file,
// so that nothing meant for the removed disk reaches the new one.
func TestAddedDiskIdsAreNeverReused(t *testing.T) {
	added := func(u *UI, x float64) string {
		u.mu.Lock()
		defer u.mu.Unlock()
		u.addDiskLocked(models.TablePoint{X: models.Centimetres(x), Y: 40})
		return u.selected
	}
	t.Run("after removing one", func(t *testing.T) {
		u := newTestUI(t)
		u.Feed(frameOf(t, skirmish()))
		u.Step()
		first := added(u, 80)
		u.Step()
		if err := u.correctDisk(first, formFix{name: "Dragon", owner: "red", z: "3", kind: "creature", stats: "attack=9"}); err != nil {
			t.Fatal(err)
		}
		u.Step()
		u.deleteDisk(first)
		u.Step()
		if c := u.Corrections(); len(c.Added) != 0 || len(c.Disks) != 0 {
			t.Errorf("after removing %s: got %d added and fixes %+v, want none left", first, len(c.Added), c.Disks)
		}
		second := added(u, 10)
		u.Step()
		u.mu.Lock()
		d, _ := u.layout.Disk(second)
		u.mu.Unlock()
		if second == first {
			t.Errorf("the second added disk: got id %s again, want a new one", second)
		}
		if d.Name != "New disk" || d.Owner != "" || d.Z != 0 || len(d.Stats) != 0 {
			t.Errorf("the second added disk: got %+v, want a plain new disk", d)
		}
	})
	t.Run("after loading a corrections file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "game.corrections.json")
		// An older file may keep a fix of an added disk already removed.
		old := `{"version": 1, "added": [{"id": "added-3", "x": 70, "y": 40, "r": 2.5}],
			"disks": [{"id": "added-5", "name": "Dragon"}]}`
		if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		u := newTestUIWith(t, Options{CorrectionsPath: path})
		u.Feed(frameOf(t, skirmish()))
		u.Step()
		if got := added(u, 10); got != "added-6" {
			t.Errorf("got id %s, want added-6 (above every added id in the file)", got)
		}
	})
}

// TestArmyListRadiusFitsTheCorrections: an army list entry's radius goes
// into a fix, so a radius the corrections file cannot keep is refused when
// the list is read rather than when the corrections are saved.
func TestArmyListRadiusFitsTheCorrections(t *testing.T) {
	tests := []struct {
		name string
		r    string
		ok   bool
	}{
		{"an ordinary radius", "3.2", true},
		{"no radius", "0", true},
		{"a radius of 1e6 cm", "1e6", false},
		{"a radius of 5e8 cm", "5e8", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseArmyList([]byte(`{"army": "A", "disks": [{"name": "x", "r": ` + tt.r + `}]}`))
			if (err == nil) != tt.ok {
				t.Errorf("got error %v, want accepted %v", err, tt.ok)
			}
		})
	}
}

// TestRestoreTakesBackADeletion: Restore clears a disk's deletion, keeps
// the rest of its fix and drops a fix left with nothing to correct.
func TestRestoreTakesBackADeletion(t *testing.T) {
	at := &[2]float64{50, 20}
	other := DiskFix{ID: "archer", Delete: true, Name: ptr("Bowman")}
	cases := []struct {
		name    string
		fix     DiskFix
		found   bool
		wantFix *DiskFix // the knight's fix after Restore, nil when dropped
	}{
		{"a deletion with a name and stats keeps them",
			DiskFix{ID: "knight", At: at, Delete: true, Name: ptr("Sir Kay"), Stats: map[string]int{"attack": 4}},
			true, &DiskFix{ID: "knight", At: at, Name: ptr("Sir Kay"), Stats: map[string]int{"attack": 4}}},
		{"emptied stats are a correction and stay",
			DiskFix{ID: "knight", At: at, Delete: true, Stats: map[string]int{}},
			true, &DiskFix{ID: "knight", At: at, Stats: map[string]int{}}},
		{"a deletion alone is dropped",
			DiskFix{ID: "knight", At: at, Delete: true},
			true, nil},
		{"a fix without a deletion is left alone",
			DiskFix{ID: "knight", At: at, Name: ptr("Sir Kay")},
			false, &DiskFix{ID: "knight", At: at, Name: ptr("Sir Kay")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Corrections{Version: 1, Disks: []DiskFix{other.clone(), tc.fix.clone()}}
			if got := c.Restore("knight"); got != tc.found {
				t.Errorf("Restore: got %v, want %v", got, tc.found)
			}
			var got *DiskFix
			for i := range c.Disks {
				if c.Disks[i].ID == "knight" {
					got = &c.Disks[i]
				}
			}
			switch {
			case tc.wantFix == nil && got != nil:
				t.Errorf("the knight's fix: got %+v, want it dropped", *got)
			case tc.wantFix != nil && (got == nil || !reflect.DeepEqual(*got, *tc.wantFix)):
				t.Errorf("the knight's fix: got %+v, want %+v", got, *tc.wantFix)
			}
			if !reflect.DeepEqual(c.Disks[0], other) {
				t.Errorf("another disk's fix: got %+v, want %+v untouched", c.Disks[0], other)
			}
		})
	}
}

// correctButton taps the button with the given text in the Correct tab.
func correctButton(t *testing.T, u *UI, text string) {
	t.Helper()
	var names []string
	for _, o := range test.LaidOutObjects(u.w.correct) {
		if b, ok := o.(*widget.Button); ok {
			if b.Text == text {
				test.Tap(b)
				return
			}
			names = append(names, b.Text)
		}
	}
	t.Fatalf("no %q button in the Correct tab (buttons: %v):\n%s", text, names, texts(u.w.correct))
}

// TestADeletedDiskCanBeRestored: "Delete: not a disk" lists the disk
// under Deleted; Restore brings it back with its earlier name, in the
// window and in the corrections file.
func TestADeletedDiskCanBeRestored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.corrections.json")
	u := newTestUIWith(t, Options{CorrectionsPath: path})
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	if err := u.correctDisk("knight", formFix{name: "Sir Kay", owner: "blue", z: "0", kind: "creature", stats: "attack=4"}); err != nil {
		t.Fatal(err)
	}
	u.Select("knight")
	u.Step()
	correctButton(t, u, "Delete: not a disk (phantom)")
	u.Step()

	onTable := func() (models.Disk, bool) {
		u.mu.Lock()
		defer u.mu.Unlock()
		return u.layout.Disk("knight")
	}
	if _, ok := onTable(); ok {
		t.Fatal("after Delete: the knight is still in the corrected layout")
	}
	panel := texts(u.w.correct)
	for _, want := range []string{"Deleted (1)", "Sir Kay (id knight) at 50.0, 20.0 cm"} {
		if !strings.Contains(panel, want) {
			t.Errorf("after Delete, the Correct tab: got\n%s\nwant it to contain %q", panel, want)
		}
	}
	if got := u.w.status.Text; !strings.Contains(got, "Deleted knight — restore it under Deleted") {
		t.Errorf("after Delete, the status line: got %q, want it to point to Deleted", got)
	}

	correctButton(t, u, "Restore")
	u.Step()
	d, ok := onTable()
	if !ok || d.Name != "Sir Kay" || d.Stats["attack"] != 4 {
		t.Errorf("after Restore: got %+v (on the table %v), want the knight back as Sir Kay, attack 4", d, ok)
	}
	if panel := texts(u.w.correct); strings.Contains(panel, "Deleted (") {
		t.Errorf("after Restore, the Correct tab still lists deleted disks:\n%s", panel)
	}
	if got := u.w.status.Text; strings.Contains(got, "Deleted knight") {
		t.Errorf("after Restore, the status line: got %q, want the deletion notice gone", got)
	}
	c, err := LoadCorrections(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Disks) != 1 || c.Disks[0].ID != "knight" || c.Disks[0].Delete || c.Disks[0].Name == nil || *c.Disks[0].Name != "Sir Kay" {
		t.Errorf("the corrections file after Restore: got %+v, want one knight fix named Sir Kay, not deleted", c.Disks)
	}
}
