package main

import (
	"flag"
	"fmt"
	"strings"

	"tableref/engine"
	"tableref/engine/diskwars"
)

func init() {
	register(&command{
		name:    "activation",
		summary: "Diskwars: whose turn it is in the activation phase, which disks may still act, who plays first next turn",
		usage: `Usage: tableref activation status [--played HISTORY] [--players P1,P2,...] [--first P]
                                  [--format text|json] LAYOUT.json

In the Diskwars (1999) activation phase the players, clockwise from the
first player, each activate three disks at their turn of the table, round
after round. A player who activates fewer than three ends their own phase
for this turn. A disk another disk lies on (friend or foe) is blocked and
cannot be activated; a disk with an activation marker has already acted.
Next turn, the first player is the one on the left of the current first
player (the next one in seating order).

"activation status" reads the table now and the turns played so far this
phase, and says whose turn it is, which disks may still be activated (and
why the others may not), each player's disks left, when the phase ends at
the latest (if everyone goes on activating three), and who is first player
next turn. Exit code 0 whatever the state; 1 when the history breaks the
rules (a player out of turn, more than three disks, more than they have).

LAYOUT.json gives:
  "players": ["Séverine", "Stéphane", "Pascal"]   seating order, clockwise
  "first_player": "Pascal"
  disks with "owner" and "activated": true once they have acted.
The disks a player could activate when the phase began are taken to be
those they can activate now plus those the history says they activated.

Options:
  --played HISTORY   the turns played so far this phase, in order:
                     PLAYER=N (N disks, 0 to 3), or PLAYER=frozen for the
                     spell Congélation cast on PLAYER at that point (they
                     pass their turn of the next round, "le prochain
                     tour de table", without ending their phase).
                     Names match without case or accents.
  --players LIST     the seating order, instead of the layout's "players"
  --first PLAYER     the first player, instead of the layout's "first_player"
  --format FORMAT    text (default) or json

Examples:
  tableref activation status table.json
  tableref activation status --played "Pascal=3,Séverine=3,Stéphane=3" table.json
  tableref activation status --played "Pascal=3,Severine=frozen" --format json table.json
  tableref activation status --players alice,bob --first bob table.json
`,
		run: runActivation,
	})
}

func runActivation(args []string, e *env) error {
	if len(args) == 0 || args[0] != "status" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help") {
			return flag.ErrHelp
		}
		return usageError("the only activation subcommand is status")
	}
	fs := flag.NewFlagSet("activation status", flag.ContinueOnError)
	played := fs.String("played", "", "")
	players := fs.String("players", "", "")
	first := fs.String("first", "", "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("give exactly one layout, got %d files", len(pos))
	}
	if *format != "text" && *format != "json" {
		return usageError("unknown format %q: use text or json", *format)
	}
	steps, err := diskwars.ParseActivationSteps(*played)
	if err != nil {
		return usageError("--played: %v", err)
	}
	opt := diskwars.ActivationOptions{FirstPlayer: strings.TrimSpace(*first)}
	if *players != "" {
		for _, p := range strings.Split(*players, ",") {
			if p = strings.TrimSpace(p); p == "" {
				return usageError("--players: an empty name in %q", *players)
			}
			opt.Players = append(opt.Players, strings.TrimSpace(p))
		}
	}
	l, err := readLayout(pos[0], e)
	if err != nil {
		return err
	}
	st, err := diskwars.StatusOfActivation(engine.NewTable(l), steps, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *format == "json" {
		return writeJSON(e.stdout, st)
	}
	return writeActivationText(e, st)
}

func writeActivationText(e *env, st diskwars.ActivationStatus) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Seating (clockwise): %s; first player: %s\n", strings.Join(st.Players, ", "), st.FirstPlayer)
	if st.Over {
		b.WriteString("The activation phase is over: every player has ended theirs.\n")
	} else {
		left := 0
		for _, p := range st.Standing {
			if p.Player == st.Current {
				left = p.Left
			}
		}
		fmt.Fprintf(&b, "Round %d: %s to play, up to %d of %d disks left.\n", st.Round, st.Current, min(diskwars.PerTurn, left), left)
		fmt.Fprintf(&b, "If everyone goes on activating three, the phase ends in round %d.\n", st.LastRound)
	}
	b.WriteString("Players:\n")
	for _, p := range st.Standing {
		state := "playing"
		switch {
		case p.Ended:
			state = "ended: " + p.Why
		case p.Frozen:
			state = fmt.Sprintf("frozen: passes the turn of round %d (Congélation)", p.FrozenRound)
		}
		fmt.Fprintf(&b, "  %-12s %2d left  %s\n", p.Player, p.Left, state)
	}
	b.WriteString("Disks:\n")
	for _, d := range st.Disks {
		switch {
		case d.Now:
			fmt.Fprintf(&b, "  %-10s (%s) may be activated now\n", d.Disk, d.Owner)
		case d.MayActivate:
			fmt.Fprintf(&b, "  %-10s (%s) may be activated at %s's turn\n", d.Disk, d.Owner, d.Owner)
		default:
			fmt.Fprintf(&b, "  %-10s (%s) may not: %s\n", d.Disk, d.Owner, strings.Join(d.Reasons, "; "))
		}
	}
	fmt.Fprintf(&b, "Next turn's first player: %s\n", st.NextFirstPlayer)
	for _, w := range st.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", w)
	}
	_, err := fmt.Fprint(e.stdout, b.String())
	return err
}
