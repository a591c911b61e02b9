package ui

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// layoutOf builds a layout from disks given as id, owner, x, y, r, z.
func layoutOf(ds ...models.Disk) models.Layout {
	return models.Layout{Version: 1, Table: &models.TableSize{Width: 100, Height: 60}, Disks: ds}
}

func disk(id, owner string, x, y, r float64, z int) models.Disk {
	return models.Disk{ID: id, Name: id, Owner: owner, Kind: models.KindCreature,
		X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r), Z: z}
}

func TestClassifyPlacesDistancesAmongBands(t *testing.T) {
	bands := []models.Centimetres{15, 30}
	cases := []struct {
		name     string
		edge     models.Centimetres
		band     int
		tooClose bool
		text     string
	}{
		{"an overlap is inside the first band", -1, 0, false, "overlapping"},
		{"well inside the first band", 10, 0, false, "within 15 cm"},
		{"just inside 15 cm but within the uncertainty", 14.9, 0, true, "too close to call (15 cm ± 0.2)"},
		{"exactly at the uncertainty's edge is still too close", 15.2, 1, true, "too close to call (15 cm ± 0.2)"},
		{"just beyond the uncertainty", 15.3, 1, false, "15–30 cm"},
		{"near the second band", 29.85, 1, true, "too close to call (30 cm ± 0.2)"},
		{"beyond every band", 31, 2, false, "beyond 30 cm"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			band, tc, near := classify(c.edge, bands, 0.2)
			row := RangeRow{Edge: c.edge, Band: band, TooClose: tc, Near: near}
			if band != c.band || tc != c.tooClose {
				t.Errorf("classify(%v): got band %d too close %v, want %d %v", c.edge, band, tc, c.band, c.tooClose)
			}
			if got := row.Describe(bands, 0.2); got != c.text {
				t.Errorf("Describe: got %q, want %q", got, c.text)
			}
		})
	}
}

func TestRangesAreSortedEdgeToEdge(t *testing.T) {
	l := layoutOf(disk("a", "x", 10, 10, 2, 0), disk("b", "y", 30, 10, 3, 0), disk("c", "y", 14, 10, 2, 1))
	rows := Ranges(engine.NewTable(l), 0, []models.Centimetres{15, 30}, 0.2)
	if len(rows) != 2 || rows[0].ID != "c" || rows[1].ID != "b" {
		t.Fatalf("got %+v, want c then b", rows)
	}
	if got, want := float64(rows[1].Edge), 15.0; math.Abs(got-want) > 1e-9 {
		t.Errorf("edge a-b: got %v, want %v", got, want)
	}
	if !rows[1].TooClose {
		t.Errorf("a-b at exactly 15 cm: got not too close, want too close to call")
	}
}

func TestSettleGateWaitsForFramesThatAgree(t *testing.T) {
	still := layoutOf(disk("a", "x", 10, 10, 2, 0))
	jitter := layoutOf(disk("a", "x", 10.1, 10, 2, 0))
	moved := layoutOf(disk("a", "x", 12, 10, 2, 0))
	steps := []struct {
		l      models.Layout
		motion bool
		want   bool
	}{
		{still, false, false},
		{jitter, false, false},
		{still, false, true}, // three frames within 0.3 cm
		{moved, false, false},
		{moved, true, false}, // a hand over the table
		{moved, false, false},
		{moved, false, false},
		{moved, false, true},
	}
	var g SettleGate
	for i, s := range steps {
		if got := g.Observe(s.l, s.motion); got != s.want {
			t.Errorf("frame %d: got settled %v, want %v", i+1, got, s.want)
		}
	}
}

func TestAffineFitRecoversTheMapAndInverts(t *testing.T) {
	want := Affine{A: 9.5, B: 0.4, C: 120, D: -0.3, E: 10.2, F: 35}
	l := layoutOf(disk("a", "", 10, 10, 2, 0), disk("b", "", 50, 12, 2, 0), disk("c", "", 30, 40, 2, 0), disk("d", "", 80, 50, 3, 0))
	for i := range l.Disks {
		p := want.Apply(l.Disks[i].Centre())
		l.Disks[i].Pixel = &models.ImageCircle{PX: p.U, PY: p.V, PR: 20}
	}
	got, err := FitAffine(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]float64{{got.A, want.A}, {got.B, want.B}, {got.C, want.C}, {got.D, want.D}, {got.E, want.E}, {got.F, want.F}} {
		if math.Abs(pair[0]-pair[1]) > 1e-6 {
			t.Fatalf("fit: got %+v, want %+v", got, want)
		}
	}
	pt := models.TablePoint{X: 42, Y: 17}
	back, ok := got.Invert(got.Apply(pt))
	if !ok || math.Abs(float64(back.X-pt.X)) > 1e-9 || math.Abs(float64(back.Y-pt.Y)) > 1e-9 {
		t.Errorf("invert: got %v, want %v", back, pt)
	}
}

func TestResolutionOrderFollowsResolveBefore(t *testing.T) {
	engs := []engine.Engagement{{ID: "E1"}, {ID: "E2"}, {ID: "E3"}}
	cases := []struct {
		name   string
		before [][2]string
		want   string
	}{
		{"no constraint keeps the report's order", nil, "E1E2E3"},
		{"E3 before E1", [][2]string{{"E3", "E1"}}, "E3E1E2"},
		{"a chain", [][2]string{{"E3", "E2"}, {"E2", "E1"}}, "E3E2E1"},
		{"a cycle does not lose engagements", [][2]string{{"E1", "E2"}, {"E2", "E1"}}, "E2E1E3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			for _, e := range ResolutionOrder(engs, c.before) {
				got += e.ID
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func TestCorrectionsFollowDisksAndPersist(t *testing.T) {
	l := layoutOf(disk("d1", "bob", 10, 10, 3, 0), disk("d2", "alice", 40, 10, 2, 0), disk("ghost", "", 60, 30, 2, 0))
	l.Tokens = []models.Token{{ID: "t1", Kind: "unknown", X: 40, Y: 12, R: 0.8}}
	owner, z := "alice", 2
	c := Corrections{Version: 1,
		Disks:  []DiskFix{{ID: "d1", At: &[2]float64{10, 10}, Owner: &owner, Z: &z}, {ID: "ghost", Delete: true}},
		Tokens: []TokenFix{{ID: "t1", Kind: ptr("arrow")}},
		Added:  []AddDisk{{ID: "added-1", Name: "Scout", X: 70, Y: 40, R: 2.5}},
	}
	got, next := c.Apply(l)
	d1, _ := got.Disk("d1")
	if d1.Owner != "alice" || d1.Z != 2 {
		t.Errorf("d1: got owner %q z %d, want alice 2", d1.Owner, d1.Z)
	}
	if _, ok := got.Disk("ghost"); ok {
		t.Errorf("ghost: got present, want deleted")
	}
	if _, ok := got.Disk("added-1"); !ok {
		t.Errorf("added-1: got absent, want added")
	}
	if got.Tokens[0].Kind != "arrow" {
		t.Errorf("t1 kind: got %q, want arrow", got.Tokens[0].Kind)
	}
	if l.Disks[0].Owner != "bob" {
		t.Errorf("input changed: got owner %q, want bob", l.Disks[0].Owner)
	}

	// The detector renames d1 to d7 and it moved 1 cm: the fix follows.
	later := layoutOf(disk("d7", "bob", 11, 10, 3, 0), disk("d2", "alice", 40, 10, 2, 0))
	got2, _ := next.Apply(later)
	if d7, _ := got2.Disk("d7"); d7.Owner != "alice" || d7.Z != 2 {
		t.Errorf("renamed d7: got owner %q z %d, want alice 2", d7.Owner, d7.Z)
	}

	path := filepath.Join(t.TempDir(), "game.corrections.json")
	if err := next.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadCorrections(path)
	if err != nil {
		t.Fatal(err)
	}
	got3, _ := back.Apply(l)
	if d1, _ := got3.Disk("d1"); d1.Owner != "alice" {
		t.Errorf("after a save and a load: got owner %q, want alice", d1.Owner)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left behind: %v", err)
	}
}

func TestParseCorrectionsRejectsBadFiles(t *testing.T) {
	cases := []struct{ name, json string }{
		{"not JSON", `{`},
		{"wrong version", `{"version": 2}`},
		{"unknown field", `{"version": 1, "colour": "red"}`},
		{"fix without id or position", `{"version": 1, "disks": [{"name": "x"}]}`},
		{"added disk without radius", `{"version": 1, "added": [{"id": "a", "x": 1, "y": 2}]}`},
		{"added ids twice", `{"version": 1, "added": [{"id": "a", "x": 1, "y": 2, "r": 1}, {"id": "a", "x": 1, "y": 2, "r": 1}]}`},
		{"trailing data", `{"version": 1} {}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParseCorrections([]byte(c.json)); err == nil {
				t.Errorf("got no error, want one")
			}
		})
	}
}

func FuzzParseCorrections(f *testing.F) {
	f.Add([]byte(`{"version": 1, "disks": [{"id": "d1", "at": [1, 2], "owner": "bob", "z": 1}], "added": [{"id": "a", "x": 1, "y": 2, "r": 2.5}]}`))
	f.Add([]byte(`{"version": 1, "tokens": [{"at": [3, 4], "kind": "arrow"}]}`))
	f.Add([]byte(`{"version": 1, "disks": [{"id": "d1", "r": -1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCorrections(data)
		if err != nil {
			return
		}
		l := layoutOf(disk("d1", "x", 1, 2, 3, 0))
		l.Tokens = []models.Token{{ID: "t1", Kind: "arrow", X: 3, Y: 4, R: 1}}
		out, _ := c.Apply(l)
		for _, d := range out.Disks {
			if !(d.R > 0) {
				t.Fatalf("disk %s with radius %v after a valid correction", d.ID, d.R)
			}
		}
	})
}

func TestArmyListFillsAFix(t *testing.T) {
	a, err := ParseArmyList([]byte(`{"army": "Orc horde", "owner": "bob", "side": "evil", "faction": "orcs",
		"disks": [{"name": "Orc Warband", "r": 3.2, "stats": {"attack": 5, "defense": 3}, "keywords": ["berserk"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := a.Entry("Orc Warband")
	if !ok {
		t.Fatal("entry not found")
	}
	var f DiskFix
	a.FixFrom(e, &f)
	d := disk("d1", "", 0, 0, 3, 0)
	f.applyTo(&d)
	if d.Name != "Orc Warband" || d.Owner != "bob" || d.Side != "evil" || d.Faction != "orcs" || d.Stats["attack"] != 5 || d.R != 3.2 || !d.HasKeyword("berserk") {
		t.Errorf("got %+v, want the Orc Warband of bob", d)
	}
}

func FuzzParseArmyList(f *testing.F) {
	f.Add([]byte(`{"army": "A", "disks": [{"name": "x", "r": 2, "stats": {"attack": 1}}]}`))
	f.Add([]byte(`{"army": "", "disks": []}`))
	f.Add([]byte(`{"army": "A", "disks": [{"name": "x"}, {"name": "x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseArmyList(data)
		if err != nil {
			return
		}
		for _, e := range a.Disks {
			if e.Name == "" || e.R < 0 {
				t.Fatalf("accepted entry %+v", e)
			}
		}
	})
}

func TestParseStats(t *testing.T) {
	cases := []struct {
		in   string
		want map[string]int
		bad  bool
	}{
		{"attack=5, defense=3", map[string]int{"attack": 5, "defense": 3}, false},
		{" toughness = 4 ,", map[string]int{"toughness": 4}, false},
		{"", nil, false},
		{"attack", nil, true},
		{"attack=five", nil, true},
	}
	for _, c := range cases {
		got, err := ParseStats(c.in)
		if (err != nil) != c.bad || len(got) != len(c.want) {
			t.Errorf("ParseStats(%q): got %v, %v; want %v (error %v)", c.in, got, err, c.want, c.bad)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("ParseStats(%q)[%s]: got %d, want %d", c.in, k, got[k], v)
			}
		}
	}
}

func TestTrackerChangesOnlyOnConfirm(t *testing.T) {
	l := layoutOf(disk("a", "x", 0, 0, 2, 0), disk("b", "y", 10, 0, 2, 0))
	rep := engine.Report{Damage: map[string]int{"b": 2}, Hits: []engine.Hit{{Token: "t1", Disks: []string{"b"}}},
		Melee: &engine.Melee{Casualties: []string{"a"}, Damage: map[string]int{"b": 2}, Wounds: map[string]int{}}}
	var tr DamageTracker
	ps := Proposals(7, rep, l, &tr, nil)
	if len(ps) != 2 || ps[0].Disk != "a" || !ps[0].After.Casualty || ps[1].Disk != "b" || ps[1].After.Damage != 2 {
		t.Fatalf("got %+v, want a destroyed and b damage 2", ps)
	}
	if _, ok := tr.Tally("b"); ok || len(tr.History()) != 0 {
		t.Fatalf("the tracker changed before any confirmation")
	}
	if err := tr.Confirm(ps[1]); err != nil {
		t.Fatal(err)
	}
	if err := tr.Confirm(ps[1]); err == nil {
		t.Errorf("a second confirmation of the same ruling: got accepted, want refused")
	}
	if got, _ := tr.Tally("b"); got.Damage != 2 {
		t.Errorf("b after confirm: got damage %d, want 2", got.Damage)
	}
	again := Proposals(8, rep, l, &tr, nil)
	if again[1].Before.Damage != 2 || again[1].After.Damage != 4 {
		t.Errorf("next ruling of another table starts from the tracker: got %+v, want 2 → 4", again[1])
	}
	tr.Undo()
	if _, ok := tr.Tally("b"); ok {
		if got, _ := tr.Tally("b"); got.Damage != 0 {
			t.Errorf("after undo: got damage %d, want 0", got.Damage)
		}
	}
}

// TestRangeLineRoundsAsAnalyze: the Ranges tab shows the distance analyze
// reports, rounded the same way (halves away from zero as written in
// decimal), where printf alone rounds a half stored a little below down.
func TestRangeLineRoundsAsAnalyze(t *testing.T) {
	tests := []struct {
		name string
		x    float64 // the second disk's centre; both have r = 1
		want string
	}{
		{"0.005 cm is 0.01", 2.005, "0.01"},
		{"0.025 cm is 0.03", 2.025, "0.03"},
		{"12.345 cm is 12.35", 14.345, "12.35"},
		{"an exact value is as it is", 17, "15.00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := layoutOf(disk("a", "x", 0, 0, 1, 0), disk("b", "y", tt.x, 0, 1, 0))
			rep, err := engine.Analyze(l, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strconv.FormatFloat(rep.Distances[0].Edge, 'f', 2, 64); got != tt.want {
				t.Fatalf("analyze: got %s, want %s (the case is wrong)", got, tt.want)
			}
			rows := Ranges(engine.NewTable(l), 0, diskwarsBands, 0.2)
			if got := rangeLine(rows[0], diskwarsBands, 0.2); !strings.Contains(got, " "+tt.want+" cm") {
				t.Errorf("got %q, want the distance %s cm as analyze reports it", got, tt.want)
			}
		})
	}
}
