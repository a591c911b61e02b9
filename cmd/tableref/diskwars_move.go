package main

import (
	"flag"
	"fmt"
	"math"
	"strings"

	"tableref/engine/diskwars"
	"tableref/models"
)

func init() {
	register(&command{
		name:    "move",
		summary: "Diskwars: check a move by flipping from the layouts before and after it",
		usage: `Usage: tableref move check [--bonus N] [--bard ID] [--ambush] [--tolerance CM] [--format text|json]
                       BEFORE.json AFTER.json

Compares two snapshots of the table taken before and after one Diskwars
activation. Exactly one disk must have moved. It says how many flips the
move needed at least (one flip moves the centre by one diameter), whether
it was legal (the disk was neither activated nor blocked, the flips are
within its movement, no landing on the way overlapped a disk: a disk stops
on the first disk it overlaps; a flyer passes over non-flying disks and
magic walls but stops on an enemy flyer; nobody ends on a magic wall),
and whether it ended in an attack (the disk lies on an enemy). Exit code
1 for an illegal move.

Spell disks in BEFORE.json count: Vitesse on the disk (+3 movement), Zap
on a caster within 30 cm, the disk itself when it is the caster (+2), Immobilisation on the disk (no move),
Répulsion on a disk (nobody flies over it or ends on it). Spell disks
lying on the moving disk may travel with it.

Options:
  --bonus N         movement added this turn that the table does not show
  --bard ID         the Elf Bard (keyword "bard") that gave the disk +3
                    movement: it must be within 30 cm, edge to edge, and
                    free to use its special skill
  --ambush          the disk was placed on an enemy by its special skill
                    Embuscade (keyword "ambush"), not flipped
  --tolerance CM    measuring error allowed on positions (default 0.5)
  --format FORMAT   text (default) or json

Examples:
  tableref move check before.json after.json
  tableref move check --bard bard1 before.json after.json
  tableref move check --ambush before.json after.json
`,
		run: runMove,
	})
}

func runMove(args []string, e *env) error {
	if len(args) == 0 || args[0] != "check" {
		if len(args) > 0 && strings.TrimLeft(args[0], "-") == "help" || len(args) > 0 && strings.TrimLeft(args[0], "-") == "h" {
			return flag.ErrHelp
		}
		return usageError("the only move subcommand is check")
	}
	fs := flag.NewFlagSet("move check", flag.ContinueOnError)
	bonus := fs.Int("bonus", 0, "")
	bard := fs.String("bard", "", "")
	ambush := fs.Bool("ambush", false, "")
	tol := fs.Float64("tolerance", float64(diskwars.DefaultTolerance), "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError("give the layouts before and after the move, got %d files", len(pos))
	}
	if *format != "text" && *format != "json" {
		return usageError("unknown format %q: use text or json", *format)
	}
	if !(*tol > 0) || math.IsInf(*tol, 0) {
		return usageError("--tolerance must be a number of cm above 0, got %v", *tol)
	}
	before, err := readLayout(pos[0], e)
	if err != nil {
		return err
	}
	after, err := readLayout(pos[1], e)
	if err != nil {
		return err
	}
	m, err := diskwars.CheckMove(before, after, diskwars.MoveOptions{Bonus: *bonus, Bard: *bard, Ambush: *ambush, Tolerance: models.Centimetres(*tol)})
	if err != nil {
		return err
	}
	if *format == "json" {
		err = writeJSON(e.stdout, m)
	} else {
		err = writeMoveText(e, m)
	}
	if err == nil && !m.Legal {
		return fmt.Errorf("illegal move of %s", m.Disk)
	}
	return err
}

func writeMoveText(e *env, m diskwars.Move) error {
	var b strings.Builder
	flips := fmt.Sprint(m.MinFlips)
	if m.MinFlips < 0 {
		flips = "no path found"
	}
	if m.Ambush {
		fmt.Fprintf(&b, "%s was placed %.2f cm away by an ambush (no flip)\n", m.Disk, m.Distance)
	} else {
		fmt.Fprintf(&b, "%s moved %.2f cm: at least %s flips, movement %d\n", m.Disk, m.Distance, flips, m.Movement)
	}
	for _, bo := range m.Bonuses {
		fmt.Fprintf(&b, "  movement %s\n", bo)
	}
	if m.Attack {
		fmt.Fprintf(&b, "It ends in an attack on %s\n", strings.Join(m.Attacked, ", "))
	}
	if m.Legal {
		b.WriteString("Legal: yes\n")
	} else {
		b.WriteString("Legal: no\n")
		for _, p := range m.Problems {
			fmt.Fprintf(&b, "  - %s\n", p)
		}
	}
	_, err := fmt.Fprint(e.stdout, b.String())
	return err
}
