package board9

import (
	"errors"
	"fmt"
	"testing"

	"tableref/engine/battle9"
	"tableref/vision/synth"
)

// The reader learns the camera's side and both armies from a setup frame,
// whatever side of the board the camera stands on, then reads a move.
func TestLearnThenReadFromEverySide(t *testing.T) {
	setup := setupOccupancy(t)
	p, err := battle9.ParsePosition(Openings[0], battle9.DefaultTable())
	if err != nil {
		t.Fatal(err)
	}
	m, err := battle9.ParseMove("h7-h6") // a dwarf Warrior steps towards row 1
	if err != nil {
		t.Fatal(err)
	}
	next, err := p.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	for side := range 4 {
		t.Run(fmt.Sprintf("camera side %d", side), func(t *testing.T) {
			s, err := synth.NewBoard9(uint64(20+side), synth.Medium, synth.Board9Options{Width: 640, Height: 480, Turn: side})
			if err != nil {
				t.Fatal(err)
			}
			before, err := s.Render(cells(setup), 0)
			if err != nil {
				t.Fatal(err)
			}
			after, err := s.Render(cells(next.Occupancy()), 1)
			if err != nil {
				t.Fatal(err)
			}
			var r Reader
			rd, err := r.Learn(before, setup)
			if err != nil {
				t.Fatal(err)
			}
			if diff := rd.Occupancy.Diff(setup); len(diff) != 0 {
				t.Errorf("setup frame: misread %v", diff)
			}
			res, err := r.Read(p, after)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if res.Move != m {
				t.Errorf("move: got %v, want %v", res.Move, m)
			}
		})
	}
}

func TestLookWithoutABoard(t *testing.T) {
	s, err := synth.Generate(3, synth.Easy, synth.Options{Width: 640, Height: 480})
	if err != nil {
		t.Fatal(err)
	}
	img, err := s.Render() // a Diskwars table: disks, no 9x9 board
	if err != nil {
		t.Fatal(err)
	}
	var r Reader
	if _, err := r.Look(img); !errors.Is(err, ErrNoBoard) {
		t.Errorf("a table without a board: got %v, want ErrNoBoard", err)
	}
}

func TestBenchCasesAreWhatTheySay(t *testing.T) {
	for seed := range uint64(12) {
		c, err := NewCase(seed, synth.Easy, 320, 240)
		if err != nil {
			t.Fatal(err)
		}
		_, err = battle9.InferFromOccupancy(c.Before, c.After)
		switch {
		case c.Illegal != "" && !errors.Is(err, battle9.ErrIllegalChange):
			t.Errorf("seed %d: %s change: the referee says %v, want an illegal change", seed, c.Illegal, err)
		case c.Illegal == "" && err != nil:
			t.Errorf("seed %d: legal move %v: the referee says %v", seed, c.Move, err)
		}
	}
}

func TestMeasureCountsOneCase(t *testing.T) {
	figs, err := Measure(BenchConfig{Tiers: []synth.Tier{synth.Easy}, Cases: 1, Width: 480, Height: 360, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2 || figs[0].Tier != "easy" || figs[1].Tier != "all" {
		t.Fatalf("got %+v, want easy then all", figs)
	}
	f := figs[1]
	if f.Cases != 1 || f.Squares != 81 || f.Moves+f.Illegal != 1 || f.Boards != 2 {
		t.Errorf("counts: got %+v, want one case of 81 squares, two boards", f)
	}
	if f.SquareAccuracy() < 0.95 {
		t.Errorf("square accuracy on an easy board: got %.3f, want at least 0.95", f.SquareAccuracy())
	}
}
