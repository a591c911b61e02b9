package battle9

import (
	"errors"
	"strings"
	"testing"
)

// encoding/json keeps the last of two equal keys; a lineup or a unit table
// saying two things must be refused, not read as the second.
func TestParseLineupRefusesRepeatedKeys(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"a unit given twice", `{"race":"dwarfs","units":{"Warrior":30,"Warrior":3}}`, `"Warrior" given twice`},
		{"the race given twice", `{"race":"dwarfs","units":{},"race":"orcs"}`, `"race" given twice`},
		{"the race given twice in another case", `{"race":"dwarfs","Race":"orcs"}`, `"Race" given twice`},
		{"an empty unit name given twice", `{"race":"dwarfs","units":{"":1,"":2}}`, `"" given twice`},
		{"the units given twice", `{"race":"dwarfs","units":{"Warrior":3},"units":{}}`, `"units" given twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseLineup([]byte(c.text), "l.json")
			if !errors.Is(err, ErrLineup) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "l.json") {
				t.Errorf("got %v, want ErrLineup from l.json saying %s", err, c.want)
			}
		})
	}
	// Names that differ are different keys: Army says whether they name
	// the same unit.
	l, err := ParseLineup([]byte(`{"race":"dwarfs","units":{"Warrior":1,"warriors":2}}`), "l.json")
	if err != nil {
		t.Fatalf("two spellings: got %v, want them read", err)
	}
	if _, err := DefaultTable().Army(l); !errors.Is(err, ErrBadCount) || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("two spellings of one unit: got %v, want ErrBadCount: listed twice", err)
	}
}

func TestParseTableRefusesRepeatedKeys(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"the budget given twice", `"budget": 50`, `"budget": 50, "budget": 500`, `"budget" given twice`},
		{"a field given twice in another case", `"budget": 50`, `"budget": 50, "Budget": 500`, `"Budget" given twice`},
		{"a race's name given twice", `"name": "r",`, `"name": "r", "name": "s",`, `"name" given twice in races[0]`},
		{"a unit's cost given twice", `"cost": 1,`, `"cost": 1, "cost": 0,`, `"cost" given twice in races[0].units[1]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(miniTable, c.old, c.new, 1)
			if text == miniTable {
				t.Fatalf("fixture: %q not found", c.old)
			}
			_, err := ParseTable([]byte(text), "t.json")
			if !errors.Is(err, ErrTable) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "t.json") {
				t.Errorf("got %v, want ErrTable from t.json saying %s", err, c.want)
			}
		})
	}
}
