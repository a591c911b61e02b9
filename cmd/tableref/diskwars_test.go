package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runDiskwarsCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

func TestDiskwarsCommands(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	legal := write("legal.json", `{"points_limit": 50, "creatures": [{"name": "Barde elfe", "faction": "elves", "rim": "green", "points": 5, "count": 10}]}`)
	illegal := write("illegal.json", `{"points_limit": 10, "creatures": [{"name": "Barde elfe", "faction": "elves", "rim": "green", "points": 5, "count": 3}, {"name": "Orque", "faction": "orcs", "rim": "black", "points": 5}]}`)
	before := write("before.json", `{"version": 1, "disks": [{"id": "archer", "owner": "a", "kind": "creature", "x": 0, "y": 0, "r": 2.5, "stats": {"attack": 1, "defense": 1, "toughness": 2, "movement": 3}}]}`)
	after := write("after.json", `{"version": 1, "disks": [{"id": "archer", "owner": "a", "kind": "creature", "x": 15, "y": 0, "r": 2.5, "stats": {"attack": 1, "defense": 1, "toughness": 2, "movement": 3}}]}`)
	far := write("far.json", `{"version": 1, "disks": [{"id": "archer", "owner": "a", "kind": "creature", "x": 30, "y": 0, "r": 2.5, "stats": {"attack": 1, "defense": 1, "toughness": 2, "movement": 3}}]}`)
	table := filepath.Join("..", "..", "engine", "diskwars", "testdata", "turn.json")
	const archerDisk = `{"id": "archer", "owner": "a", "kind": "creature", "x": %d, "y": %d, "r": 2.5, "stats": {"attack": 1, "defense": 1, "toughness": 2, "movement": 3}, "keywords": ["embuscade"]}`
	const bardDisk = `{"id": "bard1", "owner": "a", "kind": "creature", "x": 25, "y": 0, "r": 2.5, "activated": true, "keywords": ["bard"], "stats": {"attack": 1, "defense": 1, "toughness": 2, "movement": 3}}`
	const orcDisk = `{"id": "orc", "owner": "b", "kind": "creature", "x": 60, "y": 0, "r": 2.5, "stats": {"attack": 3, "defense": 1, "toughness": 3, "movement": 3}}`
	layoutWith := func(name string, disks ...string) string {
		return write(name, `{"version": 1, "disks": [`+strings.Join(disks, ",")+`]}`)
	}
	bardBefore := layoutWith("bard-before.json", fmt.Sprintf(archerDisk, 0, 0), bardDisk, orcDisk)
	bardAfter := layoutWith("bard-after.json", fmt.Sprintf(archerDisk, 0, -20), bardDisk, orcDisk)
	ambushAfter := layoutWith("ambush-after.json", strings.Replace(fmt.Sprintf(archerDisk, 58, 0), `"r": 2.5`, `"r": 2.5, "z": 1`, 1), bardDisk, orcDisk)
	shielded := layoutWith("shield.json", orcDisk,
		`{"id": "elf", "owner": "a", "kind": "creature", "x": 62, "y": 0, "r": 2.5, "z": 1, "stats": {"attack": 3, "defense": 1, "toughness": 2}}`,
		`{"id": "s1", "kind": "spell", "spell": "Bouclier", "x": 60, "y": 0, "r": 1.5, "z": 2, "target": "orc"}`)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a legal army", []string{"army", "check", legal}, 0, "Legal: yes"},
		{"an illegal army lists its violations", []string{"army", "check", illegal}, 1, "good and evil"},
		{"army without subcommand", []string{"army", legal}, 2, "only army subcommand"},
		{"a legal move", []string{"move", "check", before, after}, 0, "at least 3 flips"},
		{"a move too far", []string{"move", "check", before, far}, 1, "needs 6 flips"},
		{"the spell list", []string{"spell", "list"}, 0, "Choc électrique"},
		{"a cast out of range", []string{"spell", "cast", "--caster", "archers", "--spell", "zap", table}, 1, "not a spellcaster"},
		{"a scenario", []string{"scenario", "check", "--scenario", "colline-du-destin", "--destroyed", "pascal=30", table}, 0, "nobody has absolute control"},
		{"a bad tally", []string{"scenario", "check", "--scenario", "colline-du-destin", "--destroyed", "pascal", table}, 2, "PLAYER=POINTS"},
		{"the Elf Bard's +3 movement", []string{"move", "check", "--bard", "bard1", bardBefore, bardAfter}, 0, "movement +3 from the bard bard1, 20.00 cm away"},
		{"without the bard, too far", []string{"move", "check", bardBefore, bardAfter}, 1, "needs 4 flips"},
		{"an ambush", []string{"move", "check", "--ambush", bardBefore, ambushAfter}, 0, "placed 58.00 cm away by an ambush"},
		{"a shield laid on the orc", []string{"analyze", "--rules", "diskwars", "--format", "json", shielded}, 0, `"Bouclier (s1)"`},
		{"analyze with the diskwars rules", []string{"analyze", "--rules", "diskwars", "--format", "text", table}, 0, "guard answers ulc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runDiskwarsCLI(tc.args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Errorf("got exit %d, output:\n%s%s\nwant exit %d and %q", code, out, errs, tc.code, tc.want)
			}
		})
	}
}

// TestDiskwarsBadInput: bad files, unknown ids and out-of-range numbers
// give a clear error and a non-zero exit, never a panic.
func TestDiskwarsBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.json", `{"version": 1, "disks": [`)
	missing := filepath.Join(dir, "missing.json")
	const body = `{"version": 1, "disks": [
 {"id": "mage", "owner": "a", "kind": "creature", "x": 0, "y": 0, "r": 2.5, "keywords": ["spellcaster:3"], "stats": {"attack": 1, "defense": 1, "toughness": 2}},
 {"id": "orc", "owner": "b", "kind": "creature", "x": 10, "y": 0, "r": 2.5, "stats": {"attack": 1, "defense": 1, "toughness": 2, "movement": 3}},
 {"id": "hill", "kind": "terrain", "terrain": "hill", "x": 0, "y": 30, "r": 8}]}`
	table := write("table.json", body)
	movedOrc := write("moved.json", strings.Replace(body, `"x": 10`, `"x": 15`, 1))
	bad2 := write("nohill.json", strings.Replace(body, `"id": "hill"`, `"id": "hill2"`, 1))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"army: missing file", []string{"army", "check", missing}, 1, "no such file"},
		{"army: bad JSON", []string{"army", "check", bad}, 1, "invalid army file"},
		{"move: missing file", []string{"move", "check", table, missing}, 1, "no such file"},
		{"move: bad JSON", []string{"move", "check", bad, table}, 1, "malformed JSON"},
		{"move: unknown bard", []string{"move", "check", "--bard", "nobody", table, movedOrc}, 1, `bard "nobody" is not on the table`},
		{"move: a disk missing after", []string{"move", "check", table, bad2}, 1, `disk "hill" is missing after the move`},
		{"spell: unknown caster", []string{"spell", "cast", "--caster", "nobody", "--spell", "Zap", table}, 1, `no disk "nobody"`},
		{"spell: unknown target", []string{"spell", "cast", "--caster", "mage", "--spell", "Bouclier", "--target", "ghost", table}, 1, `no disk "ghost"`},
		{"spell: unknown spell", []string{"spell", "cast", "--caster", "mage", "--spell", "Abracadabra", table}, 1, "unknown spell"},
		{"spell: bad --at", []string{"spell", "cast", "--caster", "mage", "--spell", "Mur magique", "--at", "1,x", table}, 2, "want X,Y"},
		{"spell: spaces around target ids are ignored", []string{"spell", "cast", "--caster", "mage", "--spell", "Bouclier", "--target", " orc ", table}, 0, "Affected: orc"},
		{"spell: an empty target id", []string{"spell", "cast", "--caster", "mage", "--spell", "Bouclier", "--target", "orc,", table}, 2, "empty id"},
		{"scenario: bad JSON", []string{"scenario", "check", "--scenario", "colline-du-destin", bad}, 1, "malformed JSON"},
		// "Le nombre de PA peut être modifié en fonction de la taille des
		// armées" (La colline du destin): a number of points, not 0 or less.
		{"scenario: threshold 0", []string{"scenario", "check", "--scenario", "colline-du-destin", "--threshold", "0", table}, 2, "--threshold must be"},
		{"scenario: negative threshold", []string{"scenario", "check", "--scenario", "a-couteaux-tires", "--threshold", "-5", table}, 2, "--threshold must be"},
		{"activation: no players", []string{"activation", "status", table}, 1, "no players"},
		{"activation: unknown player", []string{"activation", "status", "--players", "a,b", "--first", "a", "--played", "zed=3", table}, 1, `"zed" is not among the players`},
		{"activation: out of turn", []string{"activation", "status", "--players", "a,b", "--first", "a", "--played", "b=1", table}, 1, "it is a's turn"},
		{"activation: more than three", []string{"activation", "status", "--players", "a,b", "--first", "a", "--played", "a=4", table}, 2, "from 0 to 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runDiskwarsCLI(tc.args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Errorf("got exit %d, output:\n%s%s\nwant exit %d and %q", code, out, errs, tc.code, tc.want)
			}
		})
	}
}
