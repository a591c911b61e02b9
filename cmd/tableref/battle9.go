package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"tableref/engine/battle9"
)

func init() {
	register(&command{
		name:    "battle9",
		summary: "the 9x9 battle game: check a lineup, list legal moves, check a move, show the units",
		usage: `Usage: tableref battle9 ACTION [--units FILE] [arguments]

Referee of the 9x9 battle game (dwarfs, elves, humans, orcs, undead): armies
bought with 50 points, set up on rows 1-3 and 7-9, then moves until a King
is checkmated or a player has no legal move.

Actions:
  lineup FILE              check an army (at most 50 points, at most 27 units
                           with the King, one free King; elves get several)
  moves POSITION           show the board and every legal move of the side to
                           move, or who has won
  check POSITION MOVE      say whether MOVE is legal; if it is, print the new
                           position; if not, say why
  infer POSITION AFTER     find the legal move that turns POSITION into AFTER,
                           where AFTER is a position or what a camera sees of
                           the board: rows 9 to 1 separated by /, a square
                           . (empty), 1 or 2 (a unit of that player), 3-9 a
                           run of empty squares
  units                    print the unit table (--format json exports it to
                           edit and pass back with --units)

A lineup file is JSON: {"race": "dwarfs", "units": {"Warrior": 3, ...}}.

A POSITION is one argument (quote it): the races of the first player (rows
1-3) and the second, the rows from 9 down to 1 separated by /, and the side
to move (1 or 2). Upper-case letters are the first player's units, lower case
the second's, a digit a run of empty squares; "tableref battle9 units" shows
the letters. Use - to read the position from standard input.

A MOVE is FROM-TO (e2-e4; x for a capture is allowed: e2xe7), FROM-VIA-TO for
a Troll's two moves (e5-d5-c5), or SQUARE* for a Shaman's explosion (quote it:
'e5*'). Files a-i run left to right for the first player, rows 1-9 from his
edge.

The unit moves are data: the printed move diagrams are missing from the
rules, so the built-in table is a DEFAULT to be checked against your copy of
the rules. Export it, edit it and pass it with --units.

Options:
  --units FILE     the unit table to use instead of the built-in default
  --format FORMAT  for units: text (default) or json
  --race NAME      for units: show one race only
  --perft N        for moves: also count the move sequences N plies deep
--format, --race and --perft given to another action are a usage error.

Examples:
  tableref battle9 lineup engine/battle9/testdata/dwarfs.json
  tableref battle9 moves "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1"
  tableref battle9 check "dwarfs:orcs 4k4/4o4/9/9/9/9/9/4H4/4K4 1" e2xe8
  tableref battle9 check "orcs:dwarfs 4k4/9/9/9/4S4/9/9/9/K8 1" 'e5*'
  tableref battle9 infer "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1" "....2..../9/9/9/9/9/....1..../9/....1...."
  tableref battle9 units --format json > units.json
`,
		run: runBattle9,
	})
}

type battle9Opts struct {
	units  string
	format string
	race   string
	perft  int
}

func runBattle9(args []string, e *env) error {
	fs := flag.NewFlagSet("battle9", flag.ContinueOnError)
	var o battle9Opts
	fs.StringVar(&o.units, "units", "", "")
	fs.StringVar(&o.format, "format", "text", "")
	fs.StringVar(&o.race, "race", "", "")
	fs.IntVar(&o.perft, "perft", 0, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError("give an action: lineup, moves, check, infer or units")
	}
	if o.perft < 0 || o.perft > 4 {
		return usageError("--perft %d: give 1 to 4 (deeper takes too long)", o.perft)
	}
	action, rest := pos[0], pos[1:]
	want := map[string]int{"lineup": 1, "moves": 1, "check": 2, "infer": 2, "units": 0}
	n, ok := want[action]
	if !ok {
		return usageError("unknown action %q: use lineup, moves, check, infer or units", action)
	}
	if len(rest) != n {
		return usageError("%s takes %d argument(s), got %d (quote a position: it has spaces)", action, n, len(rest))
	}
	if err := battle9OptionsApply(fs, action); err != nil {
		return err
	}
	tbl := battle9.DefaultTable()
	if o.units != "" {
		if tbl, err = battle9.LoadTable(o.units); err != nil {
			return err
		}
	}
	switch action {
	case "lineup":
		return battle9Lineup(tbl, rest[0], e)
	case "moves":
		return battle9Moves(tbl, rest[0], o.perft, e)
	case "check":
		return battle9Check(tbl, rest[0], rest[1], e)
	case "infer":
		return battle9Infer(tbl, rest[0], rest[1], e)
	}
	return battle9Units(tbl, o, e)
}

// battle9OptionsApply refuses an option given to an action it does not
// apply to (--format and --race are for units, --perft for moves), so
// that it is not silently ignored.
func battle9OptionsApply(fs *flag.FlagSet, action string) error {
	only := map[string]string{"format": "units", "race": "units", "perft": "moves"}
	var wrong []string
	fs.Visit(func(f *flag.Flag) {
		if a, ok := only[f.Name]; ok && a != action {
			wrong = append(wrong, fmt.Sprintf("--%s is for %s only", f.Name, a))
		}
	})
	if len(wrong) > 0 {
		return usageError("%s: %s", action, strings.Join(wrong, ", "))
	}
	return nil
}

func battle9Lineup(tbl *battle9.Table, path string, e *env) error {
	var l battle9.Lineup
	var err error
	if path == "-" {
		b, rerr := io.ReadAll(e.stdin)
		if rerr != nil {
			return rerr
		}
		l, err = battle9.ParseLineup(b, "stdin")
	} else {
		l, err = battle9.LoadLineup(path)
	}
	if err != nil {
		return err
	}
	a, err := tbl.Army(l)
	if err != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: the lineup breaks the rules:", path)
		for _, line := range strings.Split(err.Error(), "\n") {
			b.WriteString("\n  " + strings.TrimPrefix(line, battle9.ErrLineup.Error()+": "))
		}
		return errors.New(b.String())
	}
	fmt.Fprintf(e.stdout, "valid army: %s\n%d units (at most %d, Kings included), cost %d (at most %d)\n",
		a, a.Size(), tbl.MaxUnits, a.Cost(), tbl.Budget)
	return nil
}

func readPosition(tbl *battle9.Table, text string, e *env) (battle9.Position, error) {
	if text == "-" {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return battle9.Position{}, err
		}
		text = string(b)
	}
	return battle9.ParsePosition(text, tbl)
}

func battle9Moves(tbl *battle9.Table, text string, perft int, e *env) error {
	p, err := readPosition(tbl, text, e)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(p.Diagram())
	fmt.Fprintf(&b, "%s (first, upper case) against %s (second, lower case)\n", p.Race(battle9.First).Name, p.Race(battle9.Second).Name)
	if st := p.Status(); st.Over() {
		fmt.Fprintf(&b, "game over: %s\n", st)
		_, err := io.WriteString(e.stdout, b.String())
		return err
	}
	moves := p.LegalMoves()
	fmt.Fprintf(&b, "%s player to move", p.ToMove())
	if p.KingCapturable(p.ToMove()) {
		b.WriteString(" (his King is attacked)")
	}
	fmt.Fprintf(&b, ": %d legal moves\n", len(moves))
	writeMovesByUnit(&b, p, moves)
	if perft > 0 {
		fmt.Fprintf(&b, "perft %d: %d\n", perft, battle9.Perft(p, perft))
	}
	_, err = io.WriteString(e.stdout, b.String())
	return err
}

// writeMovesByUnit lists the moves one line per unit, in board order.
func writeMovesByUnit(b *strings.Builder, p battle9.Position, moves []battle9.Move) {
	var from battle9.Square = battle9.NoSquare
	for _, m := range moves {
		if m.From != from {
			if from != battle9.NoSquare {
				b.WriteByte('\n')
			}
			from = m.From
			pc, _ := p.At(from)
			fmt.Fprintf(b, "  %-10s %s:", pc.Unit.Name, from)
		}
		b.WriteString(" " + p.Notation(m))
	}
	if from != battle9.NoSquare {
		b.WriteByte('\n')
	}
}

func battle9Check(tbl *battle9.Table, text, move string, e *env) error {
	p, err := readPosition(tbl, text, e)
	if err != nil {
		return err
	}
	m, err := battle9.ParseMove(move)
	if err != nil {
		// Bad move text is bad input like a bad position (exit 1): the
		// error already shows the notation, so a one-line hint replaces
		// the whole usage text a usage error would print.
		return fmt.Errorf("%w; \"tableref help battle9\" describes moves", err)
	}
	route, err := p.Resolve(m)
	if err != nil {
		return fmt.Errorf("illegal: %w", err)
	}
	q, _ := p.Apply(route)
	var b strings.Builder
	fmt.Fprintf(&b, "legal: %s", p.Notation(route))
	if removed := p.Removed(route); len(removed) > 0 {
		var names []string
		for _, sq := range removed {
			pc, _ := p.At(sq)
			names = append(names, fmt.Sprintf("%s player's %s on %s", pc.Side, pc.Unit.Name, sq))
		}
		fmt.Fprintf(&b, " (removes the %s)", strings.Join(names, ", the "))
	}
	fmt.Fprintf(&b, "\n%s\n%s", q, q.Diagram())
	if st := q.Status(); st.Over() {
		fmt.Fprintf(&b, "game over: %s\n", st)
	}
	_, err = io.WriteString(e.stdout, b.String())
	return err
}

func battle9Infer(tbl *battle9.Table, text, after string, e *env) error {
	p, err := readPosition(tbl, text, e)
	if err != nil {
		return err
	}
	var occ battle9.Occupancy
	if q, perr := battle9.ParsePosition(after, tbl); perr == nil {
		occ = q.Occupancy()
	} else if occ, err = battle9.ParseOccupancy(after); err != nil {
		return fmt.Errorf("AFTER is neither a position (%v) nor an occupancy (%v)", perr, err)
	}
	m, err := battle9.InferFromOccupancy(p, occ)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "move played: %s\n", p.Notation(m))
	return nil
}

func battle9Units(tbl *battle9.Table, o battle9Opts, e *env) error {
	if o.format != "text" && o.format != "json" {
		return usageError("unknown format %q: use text or json", o.format)
	}
	races := tbl.Races
	if o.race != "" {
		r, ok := tbl.Race(o.race)
		if !ok {
			return usageError("unknown race %q: use one of %s", o.race, strings.Join(tbl.RaceNames(), ", "))
		}
		races = []*battle9.Race{r}
	}
	if o.format == "json" {
		if o.race != "" {
			return writeJSON(e.stdout, races[0])
		}
		b, err := tbl.Marshal()
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(b)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nBudget %d points, at most %d units (Kings included).\n", tbl.Note, tbl.Budget, tbl.MaxUnits)
	for _, r := range races {
		fmt.Fprintf(&b, "\n%s (%d free King", r.Name, r.Kings())
		if r.Kings() > 1 {
			b.WriteString("s")
		}
		b.WriteString(")\n")
		for _, u := range r.Units {
			fmt.Fprintf(&b, "  %s %-11s cost %2d  %s\n", u.Letter, u.Name, u.Cost, describeUnit(u))
		}
	}
	_, err := io.WriteString(e.stdout, b.String())
	return err
}

func describeUnit(u *battle9.Unit) string {
	var parts []string
	if u.Like != "" {
		parts = append(parts, "moves like the "+u.Like)
	}
	if len(u.Dots) > 0 {
		parts = append(parts, "dots "+strings.Join(u.Dots, " "))
	}
	if len(u.Arrows) > 0 {
		parts = append(parts, "arrows "+strings.Join(u.Arrows, " "))
	}
	if len(u.Jumps) > 0 {
		var js []string
		for _, j := range u.Jumps {
			js = append(js, fmt.Sprintf("%d,%d", j[0], j[1]))
		}
		parts = append(parts, "jumps "+strings.Join(js, " "))
	}
	if u.Double {
		parts = append(parts, "moves again if the first move captured nothing")
	}
	if u.Explode > 0 {
		parts = append(parts, fmt.Sprintf("explodes (%dx%d)", 2*u.Explode+1, 2*u.Explode+1))
	}
	return strings.Join(parts, "; ")
}
