package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"tableref/engine"
	"tableref/engine/diskwars"
)

func init() {
	register(&command{
		name:    "scenario",
		summary: "Diskwars: check a scenario's victory conditions from end-of-turn layouts",
		usage: `Usage: tableref scenario check --scenario NAME [--destroyed P=N,...] [--threshold N] [--format text|json] LAYOUT.json [LAYOUT.json...]

Checks the victory conditions of the three scenarios of the Diskwars
(1999) rulebook on snapshots taken at the end of consecutive turns (oldest
first; the last is now):

  premier-contact    absolute control of the central terrain (a disk of
                     yours touches it, no enemy does) at the end of two
                     consecutive turns, or disks with a combined attack of
                     8 or more on the enemy homeland
  colline-du-destin  absolute control of the central terrain and 25 army
                     points destroyed
  a-couteaux-tires   25 army points destroyed more than the nearest
                     opponent; absolute control of the central terrain is
                     worth 10 points at the count

The central terrain is the layout's top-level "central" (a disk id), else
the only terrain that is not a homeland, else the one nearest the middle
of the table. Homelands are terrain disks with terrain "homeland" and an
owner.

Options:
  --scenario NAME    premier-contact, colline-du-destin or a-couteaux-tires
  --destroyed LIST   army points destroyed so far by each player: alice=30,bob=10
  --threshold N      points to destroy (default 25)
  --format FORMAT    text (default) or json

Examples:
  tableref scenario check --scenario premier-contact turn3.json turn4.json
  tableref scenario check --scenario colline-du-destin --destroyed alice=27 turn5.json
`,
		run: runScenario,
	})
}

func runScenario(args []string, e *env) error {
	if len(args) == 0 || args[0] != "check" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			return flag.ErrHelp
		}
		return usageError("the only scenario subcommand is check")
	}
	fs := flag.NewFlagSet("scenario check", flag.ContinueOnError)
	name := fs.String("scenario", "", "")
	destroyed := fs.String("destroyed", "", "")
	threshold := fs.Int("threshold", diskwars.DefaultThreshold, "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return err
	}
	if *name == "" || len(pos) == 0 {
		return usageError("give --scenario and at least one layout file")
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *threshold < 1 {
		return usageError("--threshold must be a number of army points of 1 or more, got %d", *threshold)
	}
	if !diskwars.KnownScenario(*name) {
		return usageError("unknown scenario %q: use %s", *name, strings.Join(diskwars.ScenarioNames(), ", "))
	}
	tally, err := parseTally(*destroyed)
	if err != nil {
		return usageError("--destroyed: %v", err)
	}
	var turns []*engine.Table
	for _, p := range pos {
		l, err := readLayout(p, e)
		if err != nil {
			return err
		}
		turns = append(turns, engine.NewTable(l))
	}
	v, err := diskwars.CheckScenario(*name, turns, tally, *threshold)
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeJSON(e.stdout, v)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Scenario %s, central terrain %s, control: %s\n", v.Scenario, v.Central, orNone(nonEmpty(v.Control)))
	for _, r := range v.Reasons {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	if v.Winner != "" {
		fmt.Fprintf(&b, "Winner: %s\n", v.Winner)
	} else {
		b.WriteString("No winner yet\n")
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// parseTally reads "alice=30,bob=10".
func parseTally(s string) (diskwars.Tally, error) {
	t := diskwars.Tally{}
	if strings.TrimSpace(s) == "" {
		return t, nil
	}
	for _, part := range strings.Split(s, ",") {
		p, n, ok := strings.Cut(part, "=")
		v, err := strconv.Atoi(strings.TrimSpace(n))
		if !ok || err != nil || v < 0 || strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("want PLAYER=POINTS, got %q", part)
		}
		t[strings.TrimSpace(p)] += v
	}
	return t, nil
}
