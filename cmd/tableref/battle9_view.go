package main

import (
	"flag"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tableref/engine/battle9"
	"tableref/ui"
)

func init() {
	addBattle9Action("view", `
The board view:
  view [--last MOVE] [--select SQUARE] [--screenshot PNG [--after S]] POSITION
                           open a window with the board: tap a unit of the
                           side to move to see its legal moves (dots; a red
                           ring where it captures), tap one to play it (the
                           move is printed); --last highlights a move (the
                           one the camera inferred), --select a unit
Example:
  tableref battle9 view "orcs:dwarfs 4kth2/1t1hrh1t1/1w2w2w1/9/9/9/GGGG1GGGG/2OOSOO2/2T1K1T2 2"
`, runBattle9View)
}

func runBattle9View(args []string, e *env) error {
	fs := flag.NewFlagSet("battle9 view", flag.ContinueOnError)
	units := fs.String("units", "", "")
	last := fs.String("last", "", "")
	sel := fs.String("select", "", "")
	shot := fs.String("screenshot", "", "")
	after := fs.Float64("after", 1, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("view takes one POSITION, got %d arguments (quote a position: it has spaces)", len(pos))
	}
	p, err := parsePosition(pos[0], *units)
	if err != nil {
		return err
	}
	var lastMove *battle9.Move
	if *last != "" {
		m, err := battle9.ParseMove(*last)
		if err != nil {
			return usageError("--last: %v", err)
		}
		lastMove = &m
	}
	var selected battle9.Square = battle9.NoSquare
	if *sel != "" {
		if selected, err = battle9.ParseSquare(*sel); err != nil {
			return usageError("--select: %v", err)
		}
	}
	if err := needDisplay(`use "tableref battle9 moves" for the position's moves as text`); err != nil {
		return err
	}
	a := app.NewWithID("org.tableref.battle9")
	w := a.NewWindow("tableref: 9x9 battle")
	view := ui.NewBoard9View(p)
	view.SetPosition(p, lastMove)
	if selected.Valid() {
		view.Select(selected)
	}
	status := widget.NewLabel(battle9Status(p))
	view.OnMove = func(m battle9.Move, next battle9.Position) {
		fmt.Fprintf(e.stdout, "%s\n%s\n", m, next)
		status.SetText(battle9Status(next))
	}
	w.SetContent(container.NewBorder(nil, status, nil, nil, view))
	w.Resize(fyne.NewSize(620, 680))
	var shotErr error
	if *shot != "" {
		go func() {
			time.Sleep(time.Duration(*after * float64(time.Second)))
			fyne.Do(func() {
				shotErr = saveCapture(w, *shot)
				a.Quit()
			})
		}()
	}
	w.ShowAndRun()
	if shotErr == nil && *shot != "" {
		fmt.Fprintf(e.stdout, "saved the window to %s\n", *shot)
	}
	return shotErr
}

func battle9Status(p battle9.Position) string {
	if s := p.Status(); s.Over() {
		return "game over: " + s.String()
	}
	side := "first"
	if p.ToMove() == battle9.Second {
		side = "second"
	}
	return fmt.Sprintf("%s player (%s) to move: %d legal moves", side, p.Race(p.ToMove()).Name, len(p.LegalMoves()))
}
