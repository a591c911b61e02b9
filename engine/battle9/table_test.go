package battle9

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const miniTable = `{"budget": 50, "maxUnits": 27, "races": [{"name": "r", "units": [
 {"name": "King", "letter": "K", "cost": 0, "king": true, "dots": ["all"]},
 {"name": "Pawn", "letter": "P", "cost": 1, "dots": ["F"]}]}]}`

func TestDefaultTableIsValidAndMarkedAsDefault(t *testing.T) {
	tbl := DefaultTable()
	if !strings.Contains(tbl.Note, "DEFAULT") || !strings.Contains(tbl.Note, "checked against the printed rules") {
		t.Errorf("note: got %q, want it to say the table is a default to check", tbl.Note)
	}
	if tbl.Budget != 50 || tbl.MaxUnits != 27 {
		t.Errorf("budget and unit limit: got %d and %d, want 50 and 27", tbl.Budget, tbl.MaxUnits)
	}
	for _, r := range tbl.Races {
		for _, u := range r.Units {
			if u.Note == "" {
				t.Errorf("%s %s: no note saying where it comes from", r.Name, u.Name)
			}
		}
	}
}

func TestTableMarshalRoundTrip(t *testing.T) {
	b, err := DefaultTable().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseTable(b, "marshalled")
	if err != nil {
		t.Fatalf("the marshalled table does not load: %v", err)
	}
	b2, _ := again.Marshal()
	if !bytes.Equal(b, b2) {
		t.Errorf("marshal, load, marshal: got a different table")
	}
}

func TestParseTableErrors(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"no budget", `"budget": 50`, `"budget": 0`, "budget"},
		{"no unit limit", `"maxUnits": 27`, `"maxUnits": -1`, "maxUnits"},
		{"unknown field", `"budget": 50`, `"budget": 50, "budjet": 3`, "unknown field"},
		{"race without a name", `"name": "r"`, `"name": ""`, "no name"},
		{"two Kings", `"name": "Pawn", "letter": "P", "cost": 1,`, `"name": "Pawn", "letter": "P", "cost": 0, "king": true,`, "exactly one"},
		{"no King", `"cost": 0, "king": true,`, `"cost": 0,`, "exactly one"},
		{"letter used twice", `"letter": "P"`, `"letter": "k"`, "already used"},
		{"letter not a letter", `"letter": "P"`, `"letter": "7"`, "one letter"},
		{"unit twice", `"name": "Pawn"`, `"name": "king"`, "listed twice"},
		{"negative cost", `"cost": 1`, `"cost": -1`, "negative cost"},
		{"unknown direction", `"dots": ["F"]`, `"dots": ["up"]`, "direction"},
		{"direction twice", `"dots": ["F"]`, `"dots": ["F", "orth"]`, "twice"},
		{"jump of one square", `"dots": ["F"]`, `"jumps": [[0, 1]]`, "leap of 2"},
		{"jump off the board", `"dots": ["F"]`, `"jumps": [[0, 9]]`, "leap of 2"},
		{"like an unknown unit", `"dots": ["F"]`, `"like": "Orc"`, "no such unit"},
		{"like itself", `"dots": ["F"]`, `"like": "Pawn"`, "itself"},
		{"no moves", `"dots": ["F"]`, `"note": "none"`, "no moves"},
		{"explosion too big", `"dots": ["F"]`, `"explode": 9`, "explode"},
		{"too many free Kings", `"name": "r",`, `"name": "r", "freeKings": 28,`, "freeKings"},
		{"trailing data", `["F"]}]}]}`, `["F"]}]}]} {}`, "after the table"},
		{"no races", `"races": [`, `"races": [], "x": [`, "unknown field"},
		{"race name with a space", `"name": "r"`, `"name": "dark elves"`, "white space"},
		{"race name with a tab", `"name": "r"`, `"name": "r\tx"`, "white space"},
		{"race name with a colon", `"name": "r"`, `"name": "r:x"`, "':'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(miniTable, c.old, c.new, 1)
			if text == miniTable {
				t.Fatalf("fixture: %q not found", c.old)
			}
			_, err := ParseTable([]byte(text), "t.json")
			if !errors.Is(err, ErrTable) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "t.json") {
				t.Errorf("got %v, want ErrTable from t.json mentioning %q", err, c.want)
			}
		})
	}
	if _, err := ParseTable([]byte(miniTable), "t.json"); err != nil {
		t.Errorf("the mini table: got %v, want valid", err)
	}
}

// "Warriors", "WARRIORS", "warrior": unit names are case-insensitive and
// may be plural (docs/battle9.md, lineup file).
func TestUnitNamesInAnyCaseAndPlural(t *testing.T) {
	dwarfs, _ := DefaultTable().Race("dwarfs")
	for _, name := range []string{"Warrior", "warrior", "WARRIOR", "Warriors", "warriors", "WARRIORS", "WarriorS"} {
		if u, ok := dwarfs.Unit(name); !ok || u.Name != "Warrior" {
			t.Errorf("%q: got %v, want the Warrior", name, u)
		}
	}
	for _, name := range []string{"Warriorss", "Warrior s", "s", ""} {
		if u, ok := dwarfs.Unit(name); ok {
			t.Errorf("%q: got %s, want no unit", name, u.Name)
		}
	}
}

func TestLikeChainsAreRefused(t *testing.T) {
	text := strings.Replace(miniTable, `"dots": ["F"]}]}]}`, `"dots": ["F"]},
 {"name": "A", "letter": "A", "cost": 1, "like": "Pawn"},
 {"name": "B", "letter": "B", "cost": 1, "like": "A"}]}]}`, 1)
	if _, err := ParseTable([]byte(text), "t"); !errors.Is(err, ErrTable) || !strings.Contains(err.Error(), "itself moves like") {
		t.Errorf("a unit like a unit that is like another: got %v, want ErrTable", err)
	}
}

func FuzzParseTable(f *testing.F) {
	f.Add([]byte(miniTable))
	f.Add(DefaultTableJSON())
	f.Add([]byte(`{"budget": 1, "maxUnits": 1, "races": [{"name": "x", "units": [{"name": "K", "letter": "K", "king": true, "explode": 2}]}]}`))
	f.Add([]byte(`{"budget": 1, "maxUnits": 1, "races": [{"name": "x", "units": [{"name": "K", "letter": "K", "king": true, "jumps": [[3, -3]], "like": "K"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tbl, err := ParseTable(data, "fuzz")
		if err != nil {
			return
		}
		b, err := tbl.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseTable(b, "again")
		if err != nil {
			t.Fatalf("a valid table marshals to an invalid one: %v", err)
		}
		if b2, _ := again.Marshal(); !bytes.Equal(b, b2) {
			t.Fatalf("marshal is not stable")
		}
		// Every race's units must be usable on a board.
		for _, r := range tbl.Races {
			p, err := NewPosition(tbl, r.Name, r.Name)
			if err != nil {
				t.Fatal(err)
			}
			for i, u := range r.Units {
				sq, _ := At(i%Size, (i/Size)%Size)
				p, _ = p.Put(sq, First, u.Name)
			}
			p.LegalMoves()
		}
	})
}

func FuzzParseLineup(f *testing.F) {
	f.Add([]byte(`{"race": "dwarfs", "units": {"Warrior": 3, "Howitzer": 3, "Trapper": 3, "Runemaster": 1}}`))
	f.Add([]byte(`{"race": "elves", "units": {"King": 3, "Scout": -1}}`))
	f.Add([]byte(`{"race": "orcs", "units": {"Goblins": 27, "Goblin": 1}}`))
	tbl := DefaultTable()
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLineup(data, "fuzz")
		if err != nil {
			return
		}
		a, err := tbl.Army(l)
		if err != nil {
			if !errors.Is(err, ErrLineup) {
				t.Fatalf("a refused lineup's error does not wrap ErrLineup: %v", err)
			}
			return
		}
		if a.Cost() > tbl.Budget || a.Size() > tbl.MaxUnits {
			t.Fatalf("accepted %v: cost %d, %d units", a, a.Cost(), a.Size())
		}
	})
}
