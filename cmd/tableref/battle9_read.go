package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	_ "image/jpeg" // frames may be JPEG
	_ "image/png"
	"io"
	"os"
	"strings"

	"tableref/calibration"
	"tableref/engine/battle9"
	"tableref/vision/board9"
)

// battle9Actions are the battle9 actions kept outside battle9.go (the
// camera side and the board view); they are dispatched in front of the
// referee's actions when they are the first argument.
var battle9Actions = map[string]func(args []string, e *env) error{}

// addBattle9Action hooks an action into the battle9 command (registered
// by battle9.go, whose init runs first: files initialise in name order)
// and appends its help to the command's.
func addBattle9Action(name, help string, run func([]string, *env) error) {
	c := commands["battle9"]
	if c == nil {
		panic("battle9 action " + name + ": the battle9 command is not registered")
	}
	if len(battle9Actions) == 0 {
		referee := c.run
		c.run = func(args []string, e *env) error {
			if len(args) > 0 {
				if run, ok := battle9Actions[args[0]]; ok {
					return run(args[1:], e)
				}
			}
			return referee(args, e)
		}
	}
	battle9Actions[name] = run
	c.usage += help
}

func init() {
	addBattle9Action("read", `
Reading the board from a camera (see docs/battle9-camera.md):
  read [--calibration CAL] [--learn IMAGE --position POSITION] [--dark-first] IMAGE
                           find the 9x9 board in a photograph and print what
                           stands on each square (. empty, 1 or 2 a unit of
                           that player) and the occupancy in the text form
                           "infer" takes. Without --learn, the two armies are
                           told apart by colour, the brighter taken as the
                           first player's (--dark-first: the darker), and
                           row 1 is the board's side
                           nearest the bottom of the photograph; --learn reads
                           a photograph of a known POSITION (the setup) first
                           to learn both armies' colours and the camera's side
  move [--calibration CAL] BEFORE AFTER POSITION
                           the move played between two settled photographs:
                           BEFORE shows POSITION (its colours and the camera's
                           side are learned from it), AFTER the board after
                           one move; prints the move and the new position, or
                           flags a change no legal move explains (exit 1)
Examples:
  tableref battle9 read board.png
  tableref battle9 read --calibration camera.json --learn setup.png \
      --position "orcs:dwarfs 4kth2/1t1hrh1t1/1w2w2w1/9/9/9/GGGG1GGGG/2OOSOO2/2T1K1T2 2" now.png
  tableref battle9 move before.png after.png "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1"
`, runBattle9Read)
	addBattle9Action("move", "", runBattle9Move)
}

// boardReader builds a reader, with the lens of a calibration file.
func boardReader(calPath string) (*board9.Reader, error) {
	r := &board9.Reader{}
	if calPath != "" {
		c, err := calibration.Load(calPath)
		if err != nil {
			return nil, err
		}
		cam := c.Lens.Camera
		r.Lens = &cam
	}
	return r, nil
}

func loadFrame(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a PNG or JPEG image: %w", path, err)
	}
	return img, nil
}

func runBattle9Read(args []string, e *env) error {
	fs := flag.NewFlagSet("battle9 read", flag.ContinueOnError)
	cal := fs.String("calibration", "", "")
	learn := fs.String("learn", "", "")
	position := fs.String("position", "", "")
	units := fs.String("units", "", "")
	darkFirst := fs.Bool("dark-first", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("read takes one image, got %d arguments", len(pos))
	}
	if (*learn == "") != (*position == "") {
		return usageError("--learn IMAGE and --position POSITION go together")
	}
	r, err := boardReader(*cal)
	if err != nil {
		return err
	}
	r.DarkFirst = *darkFirst
	if *learn != "" {
		p, err := parsePosition(*position, *units)
		if err != nil {
			return err
		}
		img, err := loadFrame(*learn)
		if err != nil {
			return err
		}
		if _, err := r.Learn(img, p.Occupancy()); err != nil {
			return fmt.Errorf("%s: %w", *learn, err)
		}
	}
	img, err := loadFrame(pos[0])
	if err != nil {
		return err
	}
	rd, err := r.Look(img)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	printReading(e.stdout, rd)
	return nil
}

// printReading prints the occupancy as a board (row 9 on top), its text
// form, and the squares read with little confidence.
func printReading(w io.Writer, rd *board9.Reading) {
	fmt.Fprint(w, occupancyDiagram(rd.Occupancy))
	fmt.Fprintf(w, "occupancy: %s\n", rd.Occupancy)
	var doubt []string
	for sq, m := range rd.Margin {
		if m < 3 {
			doubt = append(doubt, battle9.Square(sq).String())
		}
	}
	if len(doubt) > 0 {
		fmt.Fprintf(w, "in doubt: %s\n", strings.Join(doubt, " "))
	}
	fmt.Fprintf(w, "grid: %d of 100 intersections seen\n", rd.Grid.Found())
}

func occupancyDiagram(o battle9.Occupancy) string {
	var b strings.Builder
	for r := battle9.Size - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%d ", r+1)
		for f := range battle9.Size {
			fmt.Fprintf(&b, " %c", ".12"[o[r*battle9.Size+f]])
		}
		b.WriteByte('\n')
	}
	b.WriteString("   a b c d e f g h i\n")
	return b.String()
}

func parsePosition(text, units string) (battle9.Position, error) {
	tbl := battle9.DefaultTable()
	if units != "" {
		var err error
		if tbl, err = battle9.LoadTable(units); err != nil {
			return battle9.Position{}, err
		}
	}
	return battle9.ParsePosition(text, tbl)
}

func runBattle9Move(args []string, e *env) error {
	fs := flag.NewFlagSet("battle9 move", flag.ContinueOnError)
	cal := fs.String("calibration", "", "")
	units := fs.String("units", "", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 3 {
		return usageError("move takes BEFORE AFTER POSITION, got %d arguments (quote a position: it has spaces)", len(pos))
	}
	p, err := parsePosition(pos[2], *units)
	if err != nil {
		return err
	}
	r, err := boardReader(*cal)
	if err != nil {
		return err
	}
	before, err := loadFrame(pos[0])
	if err != nil {
		return err
	}
	after, err := loadFrame(pos[1])
	if err != nil {
		return err
	}
	if _, err := r.Learn(before, p.Occupancy()); err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	res, err := r.Read(p, after)
	if res == nil {
		return fmt.Errorf("%s: %w", pos[1], err)
	}
	if err != nil {
		fmt.Fprintf(e.stdout, "seen after the move:\n%s", occupancyDiagram(res.Reading.Occupancy))
		if errors.Is(err, battle9.ErrIllegalChange) {
			return fmt.Errorf("%w: ask the players", err)
		}
		return err
	}
	next, err := p.Apply(res.Move)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "move played: %s\n", p.Notation(res.Move))
	if len(res.Overruled) > 0 {
		var sqs []string
		for _, sq := range res.Overruled {
			sqs = append(sqs, sq.String())
		}
		fmt.Fprintf(e.stdout, "squares read in doubt and settled by the legal moves: %s\n", strings.Join(sqs, " "))
	}
	fmt.Fprintf(e.stdout, "%s\n", next)
	return nil
}
