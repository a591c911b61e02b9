package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/engine/battle9"
)

func battle9Testdata(name string) string {
	return filepath.Join("..", "..", "engine", "battle9", "testdata", name)
}

func TestBattle9CLI(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"the source's dwarf army is valid", []string{"battle9", "lineup", battle9Testdata("dwarfs.json")}, 0,
			[]string{"valid army: dwarfs: 1 King, 3 Warrior, 3 Howitzer, 3 Trapper, 1 Runemaster", "11 units", "cost 49"}},
		{"a lineup breaking three rules lists all three", []string{"battle9", "lineup", battle9Testdata("too-dear.json")}, 1,
			[]string{"not a unit of the race: \"Dragon\"", "you cannot buy more Kings", "can't exceed 50"}},
		{"moves lists every legal move", []string{"battle9", "moves", "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1", "--perft", "2"}, 0,
			[]string{"9 legal moves", "Warrior    e2: e2-e3 e2-d3 e2-f3 e2-d2 e2-f2", "perft 2: 45"}},
		{"moves says who won", []string{"battle9", "moves", "dwarfs:orcs k8/9/9/9/9/9/9/9/HH2K4 2"}, 0,
			[]string{"game over: checkmate: the first player wins"}},
		{"check plays a capture", []string{"battle9", "check", "dwarfs:orcs 4k4/4o4/9/9/9/9/9/4H4/4K4 1", "e2-e8"}, 0,
			[]string{"legal: e2xe8 (removes the second player's Orc on e8)", "dwarfs:orcs 4k4/4H4/9/9/9/9/9/9/4K4 2"}},
		{"check refuses a jump", []string{"battle9", "check", "dwarfs:orcs 4k4/4o4/9/9/9/9/9/4H4/4K4 1", "e2-e9"}, 1,
			[]string{"illegal", "you may not jump over other units"}},
		{"check refuses an explosion next to the own King", []string{"battle9", "check", "orcs:dwarfs 4k4/9/9/9/4S4/3K5/9/9/9 1", "e5*"}, 1,
			[]string{"the explosion may not destroy your own King"}},
		{"infer reads a camera's occupancy", []string{"battle9", "infer", "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1", "....2..../9/9/9/9/9/....1..../9/....1...."}, 0,
			[]string{"move played: e2-e3"}},
		{"infer flags an illegal change", []string{"battle9", "infer", "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1", "....2..../9/9/9/....1..../9/9/9/....1...."}, 1,
			[]string{"the change is not a legal move", "nearest legal moves"}},
		{"units shows the default as a default", []string{"battle9", "units", "--race", "orcs"}, 0,
			[]string{"DEFAULT unit table", "T Troll       cost  6  moves like the Orc; moves again if the first move captured nothing", "explodes (5x5)"}},
		{"a bad position is explained", []string{"battle9", "moves", "dwarfs:orcs 4k4/9/9 1"}, 1,
			[]string{"3 rows: the board has 9"}},
		{"a missing action is a usage error", []string{"battle9"}, 2, []string{"give an action"}},
		{"an unknown action is a usage error", []string{"battle9", "play"}, 2, []string{"unknown action \"play\""}},
		{"a bad move is explained in one line", []string{"battle9", "check", "dwarfs:orcs 4k4/9/9/9/9/9/9/9/4K4 1", "e1e2"}, 1, []string{"move \"e1e2\": want FROM-TO", "tableref help battle9"}},
		{"a position without a King is refused", []string{"battle9", "moves", "dwarfs:orcs 9/9/9/9/9/9/9/9/9 1"}, 1,
			[]string{"invalid position: the first player (dwarfs) has no King"}},
		{"a bought King is refused", []string{"battle9", "moves", "dwarfs:orcs 4k4/9/9/9/9/9/9/9/3KK4 1"}, 1,
			[]string{"has 2 Kings: the dwarfs get 1"}},
		{"an army over the budget is refused", []string{"battle9", "moves", "humans:elves 1k2k2k1/2rasar2/1sssssss1/9/9/9/FFFF1FFFF/2AMRMA2/4K4 1"}, 1,
			[]string{"the first player's units (humans) cost 53: in sum the cost can't exceed 50"}},
		{"an opening of the referee is accepted", []string{"battle9", "moves", battle9.Openings()[1], "--perft", "2"}, 0,
			[]string{"39 legal moves", "perft 2: 1599"}},
		{"a King left capturable by the other side is refused", []string{"battle9", "check", "dwarfs:undead 4k4/9/9/9/9/9/9/9/4H3K 1", "e1xe9"}, 1,
			[]string{"second player's King can be captured"}},
		{"a lineup of MaxInt64 Warriors is refused", []string{"battle9", "lineup", battle9Testdata("overflow.json")}, 1,
			[]string{"9223372036854775807 Warrior: the army can have 27 units at most"}},
		{"--format outside units is a usage error", []string{"battle9", "moves", "--format", "xml", "--race", "zzz", "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1"}, 2,
			[]string{"--format is for units only", "--race is for units only"}},
		{"--race outside units is a usage error", []string{"battle9", "check", "dwarfs:orcs 4k4/4o4/9/9/9/9/9/4H4/4K4 1", "e2-e8", "--race", "orcs"}, 2,
			[]string{"--race is for units only"}},
		{"--perft outside moves is a usage error", []string{"battle9", "lineup", "--perft", "3", battle9Testdata("dwarfs.json")}, 2,
			[]string{"--perft is for moves only"}},
		{"--perft 0 outside moves is a usage error too", []string{"battle9", "units", "--perft", "0"}, 2,
			[]string{"--perft is for moves only"}},
		{"--format and --race still work for units", []string{"battle9", "units", "--race", "orcs", "--format", "json"}, 0,
			[]string{`"name": "orcs"`}},
		{"an unquoted position is a usage error", []string{"battle9", "moves", "dwarfs:orcs", "4k4/9/9/9/9/9/9/9/4K4", "1"}, 2, []string{"quote a position"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", c.args...)
			if code != c.code {
				t.Fatalf("exit: got %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errs)
			}
			for _, want := range c.contains {
				if !strings.Contains(out+errs, want) {
					t.Errorf("output lacks %q:\n%s%s", want, out, errs)
				}
			}
		})
	}
}

func TestBattle9UnitsExportLoadsBack(t *testing.T) {
	code, out, errs := runCLI(t, "", "battle9", "units", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	edited := strings.Replace(out, `"budget": 50`, `"budget": 60`, 1)
	path := filepath.Join(t.TempDir(), "units.json")
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "", "battle9", "units", "--units", path)
	if code != 0 || !strings.Contains(out, "Budget 60 points") {
		t.Errorf("edited table: exit %d, output %q %s; want budget 60", code, out, errs)
	}
	code, _, errs = runCLI(t, "", "battle9", "units", "--units", filepath.Join(t.TempDir(), "missing.json"))
	if code != 1 || !strings.Contains(errs, "unit table") {
		t.Errorf("missing table: exit %d, stderr %q; want 1 and a message", code, errs)
	}
}

func TestBattle9PositionFromStdin(t *testing.T) {
	code, out, errs := runCLI(t, "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1\n", "battle9", "moves", "-")
	if code != 0 || !strings.Contains(out, "9 legal moves") {
		t.Errorf("exit %d, output %q %s", code, out, errs)
	}
}
