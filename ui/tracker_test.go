package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"tableref/models"
)

// volleyLayout is a diskwars turn in the manner of the demo's volley
// (cmd/tableref/demo/sequence.jsonl, line 3): two arrows on the Troll, the
// Warband on the Archers, an Ogre holding 2 damage hit by a third arrow,
// and a Giant with damage and a wound that nothing touches.
const volleyLayout = `{"version": 1, "players": ["alice", "bob"], "first_player": "alice", "disks": [
 {"id": "archers", "name": "Archers", "owner": "alice", "kind": "creature", "x": 30, "y": 30, "r": 2.5, "z": 0,
  "stats": {"attack": 2, "defense": 2, "toughness": 3, "wounds": 1}},
 {"id": "warband", "name": "Warband", "owner": "bob", "kind": "creature", "x": 34.4, "y": 31.2, "r": 3.2, "z": 1,
  "stats": {"attack": 5, "defense": 3, "toughness": 4, "wounds": 1}},
 {"id": "troll", "name": "Troll", "owner": "bob", "kind": "creature", "x": 64, "y": 56, "r": 3.8, "z": 0,
  "stats": {"attack": 7, "defense": 5, "toughness": 8, "wounds": 2}},
 {"id": "ogre", "name": "Ogre", "owner": "bob", "kind": "creature", "x": 90, "y": 56, "r": 3, "z": 0, "damage": 2,
  "stats": {"attack": 4, "defense": 3, "toughness": 4, "wounds": 2}},
 {"id": "giant", "name": "Giant", "owner": "bob", "kind": "creature", "x": 90, "y": 20, "r": 3, "z": 0, "damage": 1, "wounds_taken": 1,
  "stats": {"attack": 4, "defense": 3, "toughness": 6, "wounds": 3}}],
 "tokens": [{"id": "a1", "kind": "arrow", "x": 62.5, "y": 53, "r": 0.8}, {"id": "a2", "kind": "arrow", "x": 66.8, "y": 58.5, "r": 0.8},
  {"id": "a3", "kind": "arrow", "x": 90, "y": 57, "r": 0.8}]}`

// meleeLayout is a whdiskwars Melee Phase: the Boar pins the Elf, which
// holds 2 damage; the Orc pins the Dwarf; the Ent, with damage and a
// wound, is in no engagement.
const meleeLayout = `{"version": 1, "players": ["alice", "bob"], "first_player": "alice", "disks": [
 {"id": "elf", "name": "Elf", "owner": "alice", "kind": "creature", "x": 30, "y": 30, "r": 2.5, "z": 0, "damage": 2,
  "stats": {"strength": 2, "counter": 2, "toughness": 4, "stamina": 1}},
 {"id": "boar", "name": "Boar", "owner": "bob", "kind": "creature", "x": 34, "y": 31, "r": 3, "z": 1,
  "stats": {"strength": 3, "counter": 1, "toughness": 5, "stamina": 0}},
 {"id": "orc", "name": "Orc", "owner": "bob", "kind": "creature", "x": 60, "y": 30, "r": 3, "z": 1,
  "stats": {"strength": 5, "counter": 1, "toughness": 5, "stamina": 0}},
 {"id": "dwarf", "name": "Dwarf", "owner": "alice", "kind": "creature", "x": 64, "y": 30, "r": 2.5, "z": 0,
  "stats": {"strength": 1, "counter": 1, "toughness": 3, "stamina": 0}},
 {"id": "ent", "name": "Ent", "owner": "alice", "kind": "creature", "x": 90, "y": 30, "r": 3, "z": 0, "damage": 3, "wounds_taken": 1}]}`

func parseLayout(t *testing.T, text string) models.Layout {
	t.Helper()
	l, err := models.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// confirmAll confirms every proposal and returns each disk's tally
// afterwards (the layout's own state for a disk the tracker never saw).
func confirmAll(t *testing.T, tr *DamageTracker, ps []Proposal, l models.Layout) map[string]Tally {
	t.Helper()
	for _, p := range ps {
		if err := tr.Confirm(p); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]Tally{}
	for _, d := range l.Disks {
		out[d.ID] = tr.current(d.ID, Tally{Damage: d.Damage, Wounds: d.WoundsTaken})
	}
	return out
}

// TestProposalsAgreeWithAnalyze confirms what a ruling proposes on an
// empty tracker and checks that the tracker then holds what "tableref
// analyze" reports for the same layout: melee.damage and melee.wounds for
// the survivors, casualties destroyed. The wanted tallies were read from
// "tableref analyze --rules NAME" on these layouts.
func TestProposalsAgreeWithAnalyze(t *testing.T) {
	tests := []struct {
		name   string
		rules  string
		layout string
		want   map[string]Tally
		why    map[string]string
	}{
		{
			name: "diskwars: damage dealt this turn is not added on top of the damage held", rules: "diskwars", layout: volleyLayout,
			want: map[string]Tally{
				"archers": {Casualty: true},
				"warband": {Damage: 2},
				"troll":   {Damage: 4},
				"ogre":    {Damage: 0, Wounds: 1}, // 2 held + 2 dealt: one wound, nothing left held
				"giant":   {Damage: 1, Wounds: 1}, // untouched: its own state stays
			},
			why: map[string]string{"troll": "hit by [a1 a2]", "warband": "melee", "archers": "melee", "ogre": "hit by [a3]"},
		},
		{
			name: "whdiskwars: a wound takes the damage held away", rules: "whdiskwars", layout: meleeLayout,
			want: map[string]Tally{
				"elf":   {Damage: 0, Wounds: 1}, // 2 held + 3 dealt against toughness 4
				"boar":  {Damage: 2},
				"orc":   {Damage: 1},
				"dwarf": {Casualty: true},
				"ent":   {Damage: 3, Wounds: 1},
			},
			why: map[string]string{"elf": "melee", "boar": "melee", "dwarf": "melee"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := parseLayout(t, tt.layout)
			rep, err := EngineAnalyzer{}.Analyze(l, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			var tr DamageTracker
			ps := Proposals(1, rep, l, &tr, nil)
			for _, p := range ps {
				if w, ok := tt.why[p.Disk]; ok && p.Why != w {
					t.Errorf("%s: got reason %q, want %q", p.Disk, p.Why, w)
				}
			}
			got := confirmAll(t, &tr, ps, l)
			for id, want := range tt.want {
				if got[id] != want {
					t.Errorf("%s after confirming the ruling: got %+v, want %+v (proposals %v)", id, got[id], want, ps)
				}
			}
			for id, v := range rep.Melee.Damage {
				if got[id].Damage != v {
					t.Errorf("%s: tracker damage %d, analyze's melee.damage %d", id, got[id].Damage, v)
				}
			}
			for id, v := range rep.Melee.Wounds {
				if got[id].Wounds != v {
					t.Errorf("%s: tracker wounds %d, analyze's melee.wounds %d", id, got[id].Wounds, v)
				}
			}
		})
	}
}

// TestRulingTheSameTableAgainReplacesWhatWasConfirmed: a table ruled again
// (after a correction, a change of rules, or a new frame of it) proposes
// only the difference from what its earlier ruling had confirmed; another
// table adds to the tally.
func TestRulingTheSameTableAgainReplacesWhatWasConfirmed(t *testing.T) {
	l := parseLayout(t, volleyLayout)
	first, err := EngineAnalyzer{}.Analyze(l, "diskwars")
	if err != nil {
		t.Fatal(err)
	}
	// The player corrects the Troll's toughness: two arrows now wound it.
	tough := l.Clone()
	tough.Disks[2].Stats["toughness"] = 4
	second, err := EngineAnalyzer{}.Analyze(tough, "diskwars")
	if err != nil {
		t.Fatal(err)
	}
	same := func(r int) bool { return r == 1 }
	tests := []struct {
		name   string
		adjust int // troll damage added by hand after the first ruling
		second bool
		table  func(int) bool
		want   string // the proposals for the troll, "" for none
	}{
		{"the same ruling again proposes nothing", 0, false, same, ""},
		{"a hand adjustment made since is kept", 1, false, same, ""},
		{"a corrected outcome replaces the confirmed one", 0, true, same,
			"Troll: damage 4 → 0 wounds 0 → 1 (hit by [a1 a2], replaces ruling 1)"},
		{"another table adds to the tally", 0, false, nil, "Troll: damage 4 → 8 (hit by [a1 a2])"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tr DamageTracker
			confirmAll(t, &tr, Proposals(1, first, l, &tr, nil), l)
			if tt.adjust != 0 {
				tr.Adjust("troll", Tally{}, tt.adjust, 0)
			}
			rep, lay := first, l
			if tt.second {
				rep, lay = second, tough
			}
			var got []string
			for _, p := range Proposals(2, rep, lay, &tr, tt.table) {
				if p.Disk == "troll" {
					got = append(got, p.String())
				} else if tt.table != nil {
					t.Errorf("re-ruling the same table: got %s, want nothing for %s", p, p.Disk)
				}
			}
			if strings.Join(got, "; ") != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestACorrectionDoesNotProposeConfirmedDamageAgain drives the window: the
// volley is ruled with the diskwars rules, every proposal confirmed, then
// a disk renamed and the rules changed back and forth; the table is the
// same, so nothing new is proposed and the Troll keeps 4 damage.
func TestACorrectionDoesNotProposeConfirmedDamageAgain(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	u, err := New(a, Options{Rules: "diskwars", Settle: SettleGate{Frames: 1}})
	if err != nil {
		t.Fatal(err)
	}
	u.Feed(frameOf(t, parseLayout(t, volleyLayout)))
	u.SourceEnded()
	u.Step()
	r := u.CurrentRuling()
	if r == nil || r.Err != nil {
		t.Fatalf("no ruling: %+v", r)
	}
	if got := texts(u.w.damage); !strings.Contains(got, "Troll: damage 0 → 4 (hit by [a1 a2])") {
		t.Fatalf("damage tab: got\n%s\nwant Troll: damage 0 → 4", got)
	}
	for _, p := range r.Proposals {
		u.confirm(p)
	}
	changes := []struct {
		name string
		do   func() error
	}{
		{"a disk renamed", func() error {
			return u.CorrectDisk("warband", func(f *DiskFix) { f.Name = ptr("Orc Warband") })
		}},
		{"the rules changed to geometry", func() error { u.setRules("geometry"); return nil }},
		{"the rules changed back to diskwars", func() error { u.setRules("diskwars"); return nil }},
	}
	for _, c := range changes {
		if err := c.do(); err != nil {
			t.Fatal(err)
		}
		u.Step()
		r2 := u.CurrentRuling()
		if r2.Seq == r.Seq {
			t.Fatalf("after %s: got no new ruling, want one", c.name)
		}
		if len(r2.Proposals) != 0 {
			t.Errorf("after %s: got proposals %v, want none", c.name, r2.Proposals)
		}
	}
	u.mu.Lock()
	troll, _ := u.tracker.Tally("troll")
	u.mu.Unlock()
	if troll.Damage != 4 {
		t.Errorf("troll in the tracker: got damage %d, want 4", troll.Damage)
	}
}
