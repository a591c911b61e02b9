package ui

import (
	"image/color"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tableref/engine/battle9"
)

func board9Position(t *testing.T, text string) battle9.Position {
	t.Helper()
	p, err := battle9.ParsePosition(text, battle9.DefaultTable())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sq(t *testing.T, name string) battle9.Square {
	t.Helper()
	s, err := battle9.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The docs/battle9.md example: the dwarf Warrior on e2 has dots F FL FR L
// R (e3 d3 f3 d2 f2); the Howitzer's arrow north stops on the orc it takes.
func TestBoard9ViewSelectShowsLegalMoves(t *testing.T) {
	cases := []struct {
		pos, square    string
		targets, takes []string
	}{
		{"dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1", "e2", []string{"e3", "d3", "f3", "d2", "f2"}, nil},
		{"dwarfs:orcs 4k4/4o4/9/9/9/9/9/4H4/4K4 1", "e2", []string{"e3", "e4", "e5", "e6", "e7", "a2", "b2", "c2", "d2", "f2", "g2", "h2", "i2"}, []string{"e8"}},
		{"dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1", "e9", nil, nil}, // not the side to move
	}
	for _, c := range cases {
		v := NewBoard9View(board9Position(t, c.pos))
		v.Select(sq(t, c.square))
		m := v.Marks()
		var got, takes []string
		for _, s := range m.Targets {
			got = append(got, s.String())
		}
		for _, s := range m.Captures {
			takes = append(takes, s.String())
		}
		slices.Sort(got)
		slices.Sort(takes)
		want := slices.Sorted(slices.Values(c.targets))
		wantTakes := slices.Sorted(slices.Values(c.takes))
		if !slices.Equal(got, want) || !slices.Equal(takes, wantTakes) {
			t.Errorf("%s %s: got targets %v captures %v, want %v and %v", c.pos, c.square, got, takes, want, wantTakes)
		}
	}
}

func TestBoard9ViewTapPlaysAMove(t *testing.T) {
	app := test.NewApp()
	defer app.Quit()
	v := NewBoard9View(board9Position(t, "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1"))
	w := test.NewWindow(v)
	defer w.Close()
	w.Resize(fyne.NewSize(board9Side, board9Side))
	var played []battle9.Move
	v.OnMove = func(m battle9.Move, _ battle9.Position) { played = append(played, m) }
	tapSquare := func(name string) {
		u, w := squareCentre(sq(t, name))
		s := min(float64(v.Size().Width), float64(v.Size().Height)) / board9Side
		off := (float64(v.Size().Width) - board9Side*s) / 2
		offV := (float64(v.Size().Height) - board9Side*s) / 2
		test.TapAt(v, fyne.NewPos(float32(u*s+off), float32(w*s+offV)))
	}
	// The window shows the board: the first player's King on e1.
	shot := w.Canvas().Capture()
	ku, kv := squareCentre(sq(t, "e1"))
	scale := min(float64(v.Size().Width), float64(v.Size().Height)) / board9Side
	kx := int((ku+0.3*board9Cell)*scale + (float64(v.Size().Width)-board9Side*scale)/2)
	ky := int(kv*scale + (float64(v.Size().Height)-board9Side*scale)/2)
	if r, g, b, _ := shot.At(kx, ky).RGBA(); r>>8 < 200 || g>>8 < 200 || b>>8 < 180 {
		t.Errorf("the window at e1's King shows %v, want ivory", shot.At(kx, ky))
	}
	tapSquare("e2")
	if got := v.Marks().Selected; got != sq(t, "e2") {
		t.Fatalf("after tapping e2: selected %v, want e2", got)
	}
	tapSquare("e3")
	if len(played) != 1 || played[0].String() != "e2-e3" {
		t.Fatalf("after tapping e3: played %v, want e2-e3", played)
	}
	if got, want := v.Board().String(), "dwarfs:orcs 4k4/9/9/9/9/9/4W4/9/4K4 2"; got != want {
		t.Errorf("position: got %q, want %q", got, want)
	}
	if m := v.Marks(); !m.HasLast || m.Last.String() != "e2-e3" || m.Selected.Valid() {
		t.Errorf("marks after the move: got %+v, want the last move e2-e3 and nothing selected", m)
	}
	tapSquare("e3") // the second player moves now: the Warrior is not his
	if v.Marks().Selected.Valid() {
		t.Errorf("tapping the first player's unit on the second player's turn selected it")
	}
}

func TestRenderBoard9DrawsUnitsAndMarks(t *testing.T) {
	p := board9Position(t, "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1")
	last := battle9.StepMove(sq(t, "e1"), sq(t, "e2"))
	img := RenderBoard9(p, Board9Marks{Selected: battle9.NoSquare, Last: last, HasLast: true})
	if b := img.Bounds(); b.Dx() != board9Side || b.Dy() != board9Side {
		t.Fatalf("image %v, want %dx%d", b, board9Side, board9Side)
	}
	near := func(c color.Color, want color.NRGBA) bool {
		r, g, b, _ := c.RGBA()
		d := func(a uint32, w uint8) int { return abs(int(a>>8) - int(w)) }
		return d(r, want.R) < 40 && d(g, want.G) < 40 && d(b, want.B) < 40
	}
	cases := []struct {
		name string
		sq   string
		dx   float64
		want color.NRGBA
	}{
		{"the first player's King is ivory", "e1", 0.3, board9Sides[0]},
		{"the second player's King is red", "e9", 0.3, board9Sides[1]},
		{"an empty square is wood", "a5", 0, board9Wood},
	}
	for _, c := range cases {
		u, v := squareCentre(sq(t, c.sq))
		if got := img.At(int(u+c.dx*board9Cell), int(v)); !near(got, c.want) {
			t.Errorf("%s: pixel %v, want near %v", c.name, got, c.want)
		}
	}
	u, v := squareCentre(sq(t, "e2"))
	if got := img.At(int(u+0.45*board9Cell), int(v+0.45*board9Cell)); near(got, board9Wood) {
		t.Errorf("the last move's square e2 is not highlighted: %v", got)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
