package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tableref/engine/greatwar"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sub", "campaigns.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	t.Cleanup(func() { s.Close() })
	return s, path
}

const setupGW = `{"kind":"setup","players":[
 {"name":"kate","faction":"knights","gold":5},
 {"name":"eli","faction":"elves"},
 {"name":"oscar","faction":"orcs"},
 {"name":"ursula","faction":"uthuk"}]}`

func mustAppend(t *testing.T, s *Store, name, ev string) Record {
	t.Helper()
	r, err := s.Append(name, json.RawMessage(ev))
	if err != nil {
		t.Fatalf("append %s: %v", ev, err)
	}
	return r
}

func gold(t *testing.T, s *Store, name string) map[string]int {
	t.Helper()
	st, err := s.State(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.(greatwar.State).Gold
}

// playTurns plays n turns of income (the text's homeland incomes: 1, 1,
// Orcs 2, Uthuk 0) with a transfer each turn.
func playTurns(t *testing.T, s *Store, name string, n int) {
	for range n {
		mustAppend(t, s, name, `{"kind":"income","sources":[{"player":"kate","source":"homeland","gold":1},{"player":"eli","source":"homeland","gold":1},{"player":"oscar","source":"homeland","gold":2}]}`)
		mustAppend(t, s, name, `{"kind":"transfer","player":"kate","to":"eli","gold":1}`)
		mustAppend(t, s, name, `{"kind":"end-turn"}`)
	}
}

func TestCampaignSurvivesClosingAndReopening(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.Create("war", GreatWar); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "war", setupGW)
	playTurns(t, s, "war", 10)
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	g := gold(t, s2, "war")
	if g["kate"] != 5 || g["eli"] != 20 || g["oscar"] != 20 || g["ursula"] != 0 {
		t.Errorf("gold after 10 turns, reopened: got %v, want kate 5, eli 20, oscar 20, ursula 0", g)
	}
	st, _ := s2.State("war")
	if st.(greatwar.State).Turn != 11 {
		t.Errorf("turn: got %d, want 11", st.(greatwar.State).Turn)
	}
	lines, err := s2.PlayerLedger("war", "eli")
	if err != nil || len(lines) != 20 || lines[19].Balance != 20 {
		t.Errorf("eli's ledger: got %d lines (%v), last %+v; want 20 ending at 20", len(lines), err, lines[len(lines)-1])
	}
	recs, _ := s2.Events("war")
	if recs[1].Turn != 1 || recs[len(recs)-1].Turn != 10 || !recs[1].At.After(recs[0].At) {
		t.Errorf("turns and times of events: first income turn %d, last event turn %d", recs[1].Turn, recs[len(recs)-1].Turn)
	}
}

func TestRefusedEventsAreNotStored(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	bad := map[string]string{
		"a purchase beyond the gold held": `{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Swordsmen","cost":6,"faction":"knights"}]}]}`,
		"an unknown player":               `{"kind":"transfer","player":"zed","to":"eli","gold":1}`,
		"an unknown field":                `{"kind":"end-turn","colour":"red"}`,
		"not JSON":                        `{"kind":`,
		"a unique bought twice":           `{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Ceryx Jade","cost":1,"unique":true},{"name":"Ceryx Jade","cost":1,"unique":true}]}]}`,
	}
	for name, ev := range bad {
		if _, err := s.Append("war", json.RawMessage(ev)); err == nil {
			t.Errorf("%s: got no error", name)
		}
	}
	recs, _ := s.Events("war")
	if len(recs) != 1 {
		t.Errorf("after refused events: got %d events, want 1", len(recs))
	}
	if _, err := s.Append("nope", json.RawMessage(`{"kind":"end-turn"}`)); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown campaign: got %v, want ErrNotFound", err)
	}
	if _, err := s.Create("war", GreatWar); err == nil {
		t.Error("a second campaign named war: got no error")
	}
	if _, err := s.Create("x", "chess"); err == nil {
		t.Error("unknown rules: got no error")
	}
}

func TestUndo(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	mustAppend(t, s, "war", `{"kind":"transfer","player":"kate","to":"eli","gold":3}`)
	u, err := s.Undo("war")
	if err != nil || u.Kind != "transfer" {
		t.Fatalf("undo: got %+v, %v", u, err)
	}
	if g := gold(t, s, "war"); g["kate"] != 5 || g["eli"] != 0 {
		t.Errorf("after undo: got %v, want kate 5, eli 0", g)
	}
	recs, _ := s.Events("war")
	if len(recs) != 2 || recs[1].Undone == nil {
		t.Errorf("the undone event stays in the history, marked: got %+v", recs)
	}
	mustAppend(t, s, "war", `{"kind":"transfer","player":"kate","to":"eli","gold":5}`)
	if g := gold(t, s, "war"); g["eli"] != 5 {
		t.Errorf("after a new transfer: got %v", g)
	}
	s.Undo("war")
	s.Undo("war")
	if _, err := s.Undo("war"); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("undo past the start: got %v, want ErrNothingToUndo", err)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	playTurns(t, s, "war", 3)
	mustAppend(t, s, "war", `{"kind":"transfer","player":"kate","to":"eli","gold":1}`)
	s.Undo("war")
	x, err := s.Export("war")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := MarshalExport(x)
	other, _ := openTemp(t)
	y, err := ParseExport(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Import(y, ""); err != nil {
		t.Fatal(err)
	}
	x2, _ := other.Export("war")
	data2, _ := MarshalExport(x2)
	if string(data) != string(data2) {
		t.Errorf("export, import, export differ:\n%s\n---\n%s", data, data2)
	}
	if _, err := other.Import(y, ""); err == nil {
		t.Error("importing over an existing campaign: got no error")
	}
	if _, err := other.Import(y, "war-copy"); err != nil {
		t.Errorf("import under another name: %v", err)
	}
}

func TestImportRejectsBadFiles(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	mustAppend(t, s, "war", `{"kind":"transfer","player":"kate","to":"eli","gold":3}`)
	x, _ := s.Export("war")
	good, _ := MarshalExport(x)
	cases := map[string]string{
		"not JSON":                `{"format":`,
		"another format":          strings.Replace(string(good), ExportFormat, "other", 1),
		"unknown rules":           strings.Replace(string(good), `"rules": "greatwar"`, `"rules": "chess"`, 1),
		"an event the rules fail": strings.Replace(string(good), `"gold": 3`, `"gold": 30`, 1),
		"effects that do not add": strings.Replace(string(good), `"delta": 3`, `"delta": 4`, 1),
		"an unknown field":        strings.Replace(string(good), `"format"`, `"colour": 1, "format"`, 1),
		"events out of order":     strings.Replace(string(good), `"seq": 2`, `"seq": 5`, 1),
	}
	for name, data := range cases {
		if data == string(good) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		x, err := ParseExport([]byte(data))
		if err == nil {
			_, err = s.Import(x, "copy")
		}
		if err == nil {
			t.Errorf("%s: got no error", name)
		}
	}
	if cs, _ := s.Campaigns(); len(cs) != 1 {
		t.Errorf("refused imports left %d campaigns, want 1", len(cs))
	}
}

func TestCorruptDatabaseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.db")
	os.WriteFile(path, []byte(strings.Repeat("this is not a database\n", 300)), 0o644)
	if _, err := Open(path); !errors.Is(err, ErrCorrupt) {
		t.Errorf("open a text file: got %v, want ErrCorrupt", err)
	}
}

func TestHalfEventIsDetected(t *testing.T) {
	s, path := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	r := mustAppend(t, s, "war", `{"kind":"transfer","player":"kate","to":"eli","gold":3}`)
	if _, err := s.db.Exec(`DELETE FROM effects WHERE event_id = ? AND n = 1`, r.ID); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(path); !errors.Is(err, ErrCorrupt) {
		t.Errorf("an event missing an effect row: got %v, want ErrCorrupt", err)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	s, path := openTemp(t)
	s.db.Exec(`UPDATE schema_version SET version = ?`, SchemaVersion+1)
	s.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("a newer schema: got %v", err)
	}
}

func TestMigrationFromVersion1(t *testing.T) {
	s, path := openTemp(t)
	s.db.Exec(`DROP INDEX effects_by_player`)
	s.db.Exec(`UPDATE schema_version SET version = 1`)
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var n int
	s2.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'effects_by_player'`).Scan(&n)
	v, _ := s2.version(s2.db)
	if n != 1 || v != SchemaVersion {
		t.Errorf("after migrating from 1: index present %d, version %d; want 1 and %d", n, v, SchemaVersion)
	}
}

func TestEsfahCampaign(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("esfah", Esfah)
	mustAppend(t, s, "esfah", `{"kind":"setup","players":["chris","dana"],"total_health":180}`)
	for range 5 {
		mustAppend(t, s, "esfah", `{"kind":"end-turn"}`)
	}
	mustAppend(t, s, "esfah", `{"kind":"recruit","player":"chris","army":"horde",
	  "forces":{"terrain":"coastland","units":[{"race":"vagha","health":12},{"race":"mohrel","health":17},{"race":"firewalker","health":11}],"items_health":4},
	  "spend":{"own":{"firewalker":6},"converted":[{"from":{"vagha":3,"mohrel":5},"race":"feral","health":4}]}}`)
	lines, err := s.PlayerLedger("esfah", "chris")
	if err != nil {
		t.Fatal(err)
	}
	last := lines[0]
	for _, l := range lines {
		if l.Resource == "pool" {
			last = l
		}
	}
	if last.Balance != 90-10 {
		t.Errorf("chris's pool after recruiting 6 Firewalkers and 4 Feral: got %d, want 80", last.Balance)
	}
}

// TestImportNeedsAName: a file whose campaign name is empty or blank is
// refused as Create refuses it, and leaves the store as it was.
func TestImportNeedsAName(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	x, _ := s.Export("war")
	for _, name := range []string{"", "   ", "\t\n"} {
		t.Run(fmt.Sprintf("the name %q", name), func(t *testing.T) {
			y := x
			y.Name = name
			if _, err := s.Import(y, ""); err == nil || !strings.Contains(err.Error(), "needs a name") {
				t.Errorf("got %v, want an error saying a campaign needs a name", err)
			}
		})
	}
	if cs, _ := s.Campaigns(); len(cs) != 1 {
		t.Errorf("refused imports left %d campaigns, want 1", len(cs))
	}
}
