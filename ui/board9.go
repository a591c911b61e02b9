package ui

import (
	"image"
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"tableref/engine/battle9"
)

// Colours of the 9x9 board view.
var (
	board9Wood     = color.NRGBA{0xd9, 0xb8, 0x82, 0xff}
	board9Line     = color.NRGBA{0x3a, 0x2a, 0x18, 0xff}
	board9Frame    = color.NRGBA{0x5a, 0x3e, 0x22, 0xff}
	board9Select   = color.NRGBA{0xff, 0xd8, 0x30, 0xb0}
	board9Target   = color.NRGBA{0x2e, 0xa0, 0x4a, 0xd0}
	board9Capture  = color.NRGBA{0xd0, 0x2a, 0x2a, 0xe0}
	board9LastMove = color.NRGBA{0x3d, 0x8b, 0xfd, 0x70}
	board9Sides    = [2]color.NRGBA{{0xf4, 0xee, 0xdc, 0xff}, {0x8a, 0x1c, 0x1c, 0xff}}
	board9Letters  = [2]color.NRGBA{{0x20, 0x18, 0x10, 0xff}, {0xff, 0xf4, 0xe0, 0xff}}
)

// board9Cell is the size of a square in the view's image, in pixels; the
// margin around the squares holds the file letters and row numbers.
const (
	board9Cell   = 56
	board9Margin = 28
	board9Side   = 2*board9Margin + battle9.Size*board9Cell
)

// Board9Marks is what the view highlights on the board: the selected
// square, the squares its unit may move to (captures apart), and the last
// move (zero Kind and From = To = 0 with HasLast false: none).
type Board9Marks struct {
	Selected battle9.Square
	Targets  []battle9.Square
	Captures []battle9.Square
	Last     battle9.Move
	HasLast  bool
}

// RenderBoard9 draws the position from the first player's side (row 1 at
// the bottom): the squares, the units as disks in their side's colour
// with their letter, and the marks.
func RenderBoard9(p battle9.Position, m Board9Marks) image.Image {
	pen := newPen(image.NewRGBA(image.Rect(0, 0, board9Side, board9Side)))
	pen.rect(pen.img.Rect, board9Frame)
	pen.rect(image.Rect(board9Margin, board9Margin, board9Side-board9Margin, board9Side-board9Margin), board9Wood)
	if m.HasLast {
		for _, sq := range []battle9.Square{m.Last.From, m.Last.To, m.Last.Via} {
			if sq.Valid() {
				pen.rect(squareRect(sq), board9LastMove)
			}
		}
	}
	if m.Selected.Valid() {
		pen.rect(squareRect(m.Selected), board9Select)
	}
	for k := 0; k <= battle9.Size; k++ {
		a := board9Margin + k*board9Cell
		pen.rect(image.Rect(a-1, board9Margin, a+1, board9Side-board9Margin), board9Line)
		pen.rect(image.Rect(board9Margin, a-1, board9Side-board9Margin, a+1), board9Line)
	}
	for k := range battle9.Size {
		c := float64(board9Margin + k*board9Cell + board9Cell/2)
		pen.label(c, board9Side-board9Margin/2, string(rune('a'+k)), 14, board9Wood, color.NRGBA{})
		pen.label(board9Margin/2, float64(board9Side-board9Margin-k*board9Cell-board9Cell/2), string(rune('1'+k)), 14, board9Wood, color.NRGBA{})
	}
	for sq := range battle9.Square(battle9.NumSquares) {
		pc, ok := p.At(sq)
		if !ok {
			continue
		}
		u, v := squareCentre(sq)
		pen.disc(u, v, 0.38*board9Cell, board9Sides[pc.Side])
		pen.ring(u, v, 0.38*board9Cell, 2, board9Line)
		pen.label(u, v, pc.Unit.Letter, 22, board9Letters[pc.Side], color.NRGBA{})
	}
	for _, sq := range m.Targets {
		u, v := squareCentre(sq)
		pen.disc(u, v, 0.12*board9Cell, board9Target)
	}
	for _, sq := range m.Captures {
		u, v := squareCentre(sq)
		pen.ring(u, v, 0.44*board9Cell, 4, board9Capture)
	}
	if m.HasLast && m.Last.From != m.Last.To {
		a, b := pixelOf(m.Last.From), pixelOf(m.Last.To)
		if m.Last.Via.Valid() {
			pen.arrow(a, pixelOf(m.Last.Via), 3, board9LastMove)
			a = pixelOf(m.Last.Via)
		}
		pen.arrow(a, b, 3, color.NRGBA{0x1d, 0x5b, 0xcd, 0xe0})
	}
	return pen.img
}

func squareCentre(sq battle9.Square) (float64, float64) {
	return float64(board9Margin + sq.File()*board9Cell + board9Cell/2),
		float64(board9Side - board9Margin - sq.Row()*board9Cell - board9Cell/2)
}

func pixelOf(sq battle9.Square) Pixel {
	u, v := squareCentre(sq)
	return Pixel{u, v}
}

func squareRect(sq battle9.Square) image.Rectangle {
	x := board9Margin + sq.File()*board9Cell
	y := board9Side - board9Margin - (sq.Row()+1)*board9Cell
	return image.Rect(x, y, x+board9Cell, y+board9Cell)
}

// squareAt is the square under point (u, v) of the view's image.
func squareAt(u, v float64) (battle9.Square, bool) {
	f := int((u - board9Margin) / board9Cell)
	r := int((board9Side - board9Margin - v) / board9Cell)
	if u < board9Margin || v > board9Side-board9Margin {
		return battle9.NoSquare, false
	}
	return battle9.At(f, r)
}

// Board9View is the 9x9 battle game's board in the desktop program: the
// position, the legal moves of a selected unit, the last move. Tap a unit
// of the side to move to see where it may go; tap one of those squares to
// play the move (OnMove is told, and the view shows the new position).
// Its methods must be called on the UI goroutine.
type Board9View struct {
	widget.BaseWidget
	pos   battle9.Position
	marks Board9Marks
	img   *canvas.Image
	// OnMove, when set, is called with each move played on the view and
	// the position it leads to.
	OnMove func(m battle9.Move, next battle9.Position)
}

// NewBoard9View shows position p.
func NewBoard9View(p battle9.Position) *Board9View {
	v := &Board9View{pos: p, marks: Board9Marks{Selected: battle9.NoSquare}}
	v.img = canvas.NewImageFromImage(RenderBoard9(p, v.marks))
	v.img.FillMode = canvas.ImageFillContain
	v.img.ScaleMode = canvas.ImageScaleSmooth
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer shows the board's image.
func (v *Board9View) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.img) }

// MinSize keeps the squares big enough to tap.
func (v *Board9View) MinSize() fyne.Size { return fyne.NewSize(360, 360) }

// Board is the position shown.
func (v *Board9View) Board() battle9.Position { return v.pos }

// Marks are the highlights shown.
func (v *Board9View) Marks() Board9Marks { return v.marks }

// SetPosition shows a new position; the last move, when given, is
// highlighted (from the camera: the move inferred between two frames).
func (v *Board9View) SetPosition(p battle9.Position, last *battle9.Move) {
	v.pos = p
	v.marks = Board9Marks{Selected: battle9.NoSquare}
	if last != nil {
		v.marks.Last, v.marks.HasLast = *last, true
	}
	v.redraw()
}

// Select selects the unit on sq and highlights its legal moves; a square
// without a unit of the side to move clears the selection.
func (v *Board9View) Select(sq battle9.Square) {
	v.marks.Selected, v.marks.Targets, v.marks.Captures = battle9.NoSquare, nil, nil
	if pc, ok := v.pos.At(sq); ok && pc.Side == v.pos.ToMove() {
		v.marks.Selected = sq
		for _, m := range v.movesFrom(sq) {
			if _, taken := v.pos.At(m.To); taken || m.Kind == battle9.Explosion {
				if !slices.Contains(v.marks.Captures, m.To) {
					v.marks.Captures = append(v.marks.Captures, m.To)
				}
			} else if !slices.Contains(v.marks.Targets, m.To) {
				v.marks.Targets = append(v.marks.Targets, m.To)
			}
		}
	}
	v.redraw()
}

func (v *Board9View) movesFrom(sq battle9.Square) []battle9.Move {
	var out []battle9.Move
	for _, m := range v.pos.LegalMoves() {
		if m.From == sq {
			out = append(out, m)
		}
	}
	return out
}

// TapSquare acts on a tap on sq: play the selected unit's move there when
// it is legal, else select sq.
func (v *Board9View) TapSquare(sq battle9.Square) {
	if v.marks.Selected.Valid() {
		for _, m := range v.movesFrom(v.marks.Selected) {
			if m.To == sq {
				next, err := v.pos.Apply(m)
				if err != nil {
					break
				}
				v.SetPosition(next, &m)
				if v.OnMove != nil {
					v.OnMove(m, next)
				}
				return
			}
		}
	}
	v.Select(sq)
}

// Tapped maps the tap to a square of the board (the image is drawn
// whole, centred, keeping its aspect).
func (v *Board9View) Tapped(ev *fyne.PointEvent) {
	sz := v.Size()
	if sz.Width <= 0 || sz.Height <= 0 {
		return
	}
	s := min(float64(sz.Width), float64(sz.Height)) / board9Side
	u := (float64(ev.Position.X) - (float64(sz.Width)-board9Side*s)/2) / s
	w := (float64(ev.Position.Y) - (float64(sz.Height)-board9Side*s)/2) / s
	if sq, ok := squareAt(u, w); ok {
		v.TapSquare(sq)
	}
}

func (v *Board9View) redraw() {
	v.img.Image = RenderBoard9(v.pos, v.marks)
	v.img.Refresh()
}
