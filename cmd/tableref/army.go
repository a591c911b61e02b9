package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tableref/engine/diskwars"
)

func init() {
	register(&command{
		name:    "army",
		summary: "check a Diskwars army list: points, alignments, unique disks, main faction, spells",
		usage: `Usage: tableref army check [--format text|json] ARMY.json

Checks a Diskwars (1999) army list against the rules of "Composer son
armée": the total within the points limit, good (green rim) and evil (black
or red rim) disks never together (blue, neutral, goes with anyone), a
unique disk at most once, at least half of the points left after the
spells in one faction, and every spell castable by one of the army's
spellcasters. Every violation is listed. The exit code is 0 for a legal
army, 1 otherwise.

ARMY.json:
  {"name": "Lothari", "points_limit": 100,
   "creatures": [{"name": "Barde elfe", "faction": "elves", "rim": "green",
                  "points": 5, "count": 2, "unique": false, "spellcaster": 0}],
   "spells": [{"name": "Boule de feu", "count": 1}]}
Spell costs come from the spell table (tableref spell list) unless
"points" is given. Use "-" to read standard input.

Examples:
  tableref army check elves.json
  tableref army check --format json elves.json
`,
		run: runArmy,
	})
}

// errArmyIllegal makes the exit code 1 once the report is printed.
var errArmyIllegal = errors.New("the army breaks the rules")

func runArmy(args []string, e *env) error {
	if len(args) == 0 || args[0] != "check" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			return flag.ErrHelp
		}
		return usageError("the only army subcommand is check")
	}
	fs := flag.NewFlagSet("army check", flag.ContinueOnError)
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("give exactly one army file, got %d", len(pos))
	}
	if *format != "text" && *format != "json" {
		return usageError("unknown format %q: use text or json", *format)
	}
	data, err := readInput(pos[0], e)
	if err != nil {
		return err
	}
	a, err := diskwars.ParseArmy(data)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	r := diskwars.CheckArmy(a)
	if *format == "json" {
		if err := writeJSON(e.stdout, r); err != nil {
			return err
		}
	} else if err := writeArmyText(e.stdout, a, r); err != nil {
		return err
	}
	if !r.Legal() {
		return errArmyIllegal
	}
	return nil
}

// readInput reads a whole file, or standard input for "-".
func readInput(path string, e *env) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(io.LimitReader(e.stdin, 16<<20))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %w", err)
	}
	return data, nil
}

func writeArmyText(w io.Writer, a diskwars.Army, r diskwars.ArmyReport) error {
	var b strings.Builder
	name := a.Name
	if name == "" {
		name = "army"
	}
	limit := "no limit"
	if a.PointsLimit > 0 {
		limit = fmt.Sprintf("limit %d", a.PointsLimit)
	}
	fmt.Fprintf(&b, "%s: %d points (%s): %d for creatures, %d for spells\n", name, r.Total, limit, r.CreaturePoints, r.SpellPoints)
	if r.Alignment != "" {
		fmt.Fprintf(&b, "Alignment: %s\n", r.Alignment)
	}
	if r.MainFaction != "" {
		fmt.Fprintf(&b, "Main faction: %s, %d of %d creature points\n", r.MainFaction, r.MainFactionPoints, r.CreaturePoints)
	}
	if r.Legal() {
		b.WriteString("Legal: yes\n")
	} else {
		b.WriteString("Legal: no\n")
		for _, v := range r.Violations {
			fmt.Fprintf(&b, "  - %s\n", v)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
