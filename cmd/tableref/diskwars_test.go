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
