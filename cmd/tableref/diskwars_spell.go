package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"tableref/engine"
	"tableref/engine/diskwars"
	"tableref/models"
)

func init() {
	register(&command{
		name:    "spell",
		summary: "Diskwars: list the 31 spells, or work out what a spell does on a table",
		usage: `Usage: tableref spell list [--format text|json]
       tableref spell cast --caster ID --spell NAME [--target ID[,ID...]] [--at X,Y] [--format text|json] LAYOUT.json

"spell list" prints the spell book of Diskwars (1999): name, level, cost
in army points, range and effect.

"spell cast" says what a spell does on a table and whether the caster may
cast it: its level (keyword spellcaster:N) at least the spell's, not
activated, not blocked, targets within range edge to edge. It computes the
areas: Décrépitude and Onde de choc (enemies within 15 cm; Onde de choc
also where each one is flipped), Zap (30 cm), Paralysie (5 disks within
15 cm), Choc électrique (a target within 15 cm and its contact chain),
Protection (the caster and the disks in contact), Mur magique (an empty
place within 15 cm, at most three walls within 30 cm), Boule de feu (the
first enemy on the line towards --at). Names are French or English, any
case, accents optional. Exit code 1 when the cast is not allowed.

Spells that last until the end of the turn (Bouclier, Rune de protection,
Décrépitude, Tireur d'élite, Zap, Vitesse, Prise de tête, Répulsion; and,
as a reminder, Protection, Protection divine, Immobilisation) act in
"tableref analyze --rules diskwars" and "tableref move check" when their
spell disk lies on the target (or caster): a disk of kind "spell" naming
the spell in "spell" or "name". For Protection, Décrépitude and Zap, copy
the "affected" list printed here into the spell disk's "affected" field
to keep the disks of the cast even if they move.

Examples:
  tableref spell list
  tableref spell cast --caster mage --spell "Choc électrique" --target orc table.json
  tableref spell cast --caster mage --spell "Mur magique" --at 40,22.5 table.json
  tableref spell cast --caster mage --spell fireball --at 90,45 table.json
`,
		run: runSpell,
	})
}

func runSpell(args []string, e *env) error {
	if len(args) == 0 {
		return usageError("give a subcommand: list or cast")
	}
	switch args[0] {
	case "list":
		return runSpellList(args[1:], e)
	case "cast":
		return runSpellCast(args[1:], e)
	case "-h", "--help", "-help", "help":
		return flag.ErrHelp
	}
	return usageError("unknown spell subcommand %q: use list or cast", args[0])
}

func runSpellList(args []string, e *env) error {
	fs := flag.NewFlagSet("spell list", flag.ContinueOnError)
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("spell list takes no file")
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *format == "json" {
		return writeJSON(e.stdout, diskwars.Spells())
	}
	var b strings.Builder
	for _, s := range diskwars.Spells() {
		rng := "-"
		if s.Range > 0 {
			rng = fmt.Sprintf("%v cm", s.Range)
		}
		fmt.Fprintf(&b, "L%d %2d PA  %-20s %-20s %-6s %s\n", s.Level, s.Cost, s.Name, "("+s.English+")", rng, s.Effect)
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}

func runSpellCast(args []string, e *env) error {
	fs := flag.NewFlagSet("spell cast", flag.ContinueOnError)
	caster := fs.String("caster", "", "")
	spell := fs.String("spell", "", "")
	targets := fs.String("target", "", "")
	at := fs.String("at", "", "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *caster == "" || *spell == "" {
		return usageError("give --caster, --spell and one layout file")
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	c := diskwars.Cast{Caster: *caster, Spell: *spell}
	if *targets != "" {
		for _, id := range strings.Split(*targets, ",") {
			if id = strings.TrimSpace(id); id == "" {
				return usageError("--target: an empty id in %q", *targets)
			}
			c.Targets = append(c.Targets, id)
		}
	}
	if *at != "" {
		p, err := parsePoint(*at)
		if err != nil {
			return usageError("--at: %v", err)
		}
		c.At = &p
	}
	l, err := readLayout(pos[0], e)
	if err != nil {
		return err
	}
	r, err := diskwars.CheckCast(engine.NewTable(l), c)
	if err != nil {
		return err
	}
	if *format == "json" {
		err = writeJSON(e.stdout, r)
	} else {
		err = writeCastText(e, r)
	}
	if err == nil && !r.Legal {
		return fmt.Errorf("%s cannot cast %s", r.Caster, r.Spell.Name)
	}
	return err
}

// parsePoint reads "X,Y" in centimetres.
func parsePoint(s string) (models.TablePoint, error) {
	xs, ys, ok := strings.Cut(s, ",")
	x, errX := strconv.ParseFloat(strings.TrimSpace(xs), 64)
	y, errY := strconv.ParseFloat(strings.TrimSpace(ys), 64)
	if !ok || errX != nil || errY != nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return models.TablePoint{}, fmt.Errorf("want X,Y in cm (finite numbers), got %q", s)
	}
	return models.TablePoint{X: models.Centimetres(x), Y: models.Centimetres(y)}, nil
}

func writeCastText(e *env, r diskwars.CastResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (level %d) casts %s (level %d, %d PA)\n", r.Caster, r.CasterLevel, r.Spell.Name, r.Spell.Level, r.Spell.Cost)
	fmt.Fprintf(&b, "Effect: %s\n", r.Spell.Effect)
	fmt.Fprintf(&b, "Affected: %s\n", orNone(r.Affected))
	if r.Power > 0 && len(r.Affected) > 0 {
		fmt.Fprintf(&b, "Each suffers an attack of power %d\n", r.Power)
	}
	for _, p := range r.Pushes {
		fmt.Fprintf(&b, "  %s is flipped to (%.2f, %.2f)\n", p.Disk, p.X, p.Y)
	}
	if r.Legal {
		b.WriteString("Legal: yes\n")
	} else {
		b.WriteString("Legal: no\n")
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "  - %s\n", p)
		}
	}
	_, err := fmt.Fprint(e.stdout, b.String())
	return err
}
