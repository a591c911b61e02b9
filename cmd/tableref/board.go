package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

func init() {
	register(&command{
		name:    "board",
		summary: "make a printable chessboard (PNG) for \"tableref calibrate\"",
		usage: `Usage: tableref board [--squares COLSxROWS] [--square-mm MM] [--dpi N] --out FILE.png

Writes a chessboard to print for calibrating the camera. The PNG carries its
physical size (pHYs chunk), so printing it at 100 % ("actual size", not "fit
to page") gives squares of exactly --square-mm; check with a ruler against
the 100 mm scale bar under the board, and give "tableref calibrate" the
size you measure. The top-left square is black: the table frame starts at
the inner corner next to it.

A board of 10x7 squares has 9x6 inner corners, which is what
"tableref calibrate --board" counts. Glue the print to something flat
(card, foam board): a wavy board spoils the calibration.

Options:
  --squares COLSxROWS  number of squares (default 10x7)
  --square-mm MM       side of a square in millimetres (default 30)
  --dpi N              print resolution, at least 300 (default 300)
  --margin-mm MM       white margin around the board (default 10)
  --out FILE.png       where to write the image (required)

Examples:
  tableref board --squares 10x7 --square-mm 30 --out board.png
  tableref board --squares 8x6 --square-mm 25 --dpi 600 --out small-board.png
`,
		run: runBoard,
	})
}

type boardSpec struct {
	cols, rows int
	squareMM   float64
	dpi        float64
	marginMM   float64
}

func runBoard(args []string, e *env) error {
	fs := flag.NewFlagSet("board", flag.ContinueOnError)
	squares := fs.String("squares", "10x7", "")
	var s boardSpec
	fs.Float64Var(&s.squareMM, "square-mm", 30, "")
	fs.Float64Var(&s.dpi, "dpi", 300, "")
	fs.Float64Var(&s.marginMM, "margin-mm", 10, "")
	out := fs.String("out", "", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("board takes no file argument: use --out FILE.png")
	}
	if *out == "" {
		return usageError("--out FILE.png is required")
	}
	if s.cols, s.rows, err = parseSize(*squares); err != nil {
		return usageError("--squares: %v", err)
	}
	if err := s.check(); err != nil {
		return usageError("%v", err)
	}
	data, w, h, err := renderBoard(s)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return fmt.Errorf("writing the board: %w", err)
	}
	wmm, hmm := float64(w)/s.dpi*25.4, float64(h)/s.dpi*25.4
	fmt.Fprintf(e.stdout, "%s: %dx%d squares of %g mm, %dx%d px at %g dpi = %.0f x %.0f mm\n",
		*out, s.cols, s.rows, s.squareMM, w, h, s.dpi, wmm, hmm)
	if math.Max(wmm, hmm) > 297 || math.Min(wmm, hmm) > 210 {
		fmt.Fprintf(e.stdout, "Larger than A4 (297 x 210 mm): print on A3, or choose a smaller --square-mm.\n")
	}
	fmt.Fprintf(e.stdout, "Print at 100 %%, measure a square, then:\n  tableref calibrate --board %dx%d --square-mm %g --plane TABLE.jpg PHOTOS...\n",
		s.cols-1, s.rows-1, s.squareMM)
	return nil
}

func (s boardSpec) check() error {
	switch {
	case s.cols < 3 || s.rows < 3 || s.cols > 60 || s.rows > 60:
		return fmt.Errorf("--squares %dx%d: want 3 to 60 squares each way", s.cols, s.rows)
	case !(s.squareMM >= 2 && s.squareMM <= 500):
		return fmt.Errorf("--square-mm %g: want 2 to 500 mm", s.squareMM)
	case !(s.dpi >= 300 && s.dpi <= 2400):
		return fmt.Errorf("--dpi %g: want 300 to 2400", s.dpi)
	case !(s.marginMM >= 0 && s.marginMM <= 100):
		return fmt.Errorf("--margin-mm %g: want 0 to 100 mm", s.marginMM)
	}
	return nil
}

// renderBoard draws the board, a caption and a 100 mm scale bar, and
// returns the PNG with its physical size in a pHYs chunk.
func renderBoard(s boardSpec) ([]byte, int, int, error) {
	px := func(mm float64) int { return int(math.Round(mm / 25.4 * s.dpi)) }
	sq := s.squareMM / 25.4 * s.dpi
	margin := px(s.marginMM)
	boardW, boardH := int(math.Round(sq*float64(s.cols))), int(math.Round(sq*float64(s.rows)))
	scale := max(1, px(4)/13) // caption about 4 mm high
	captionH := 13*scale*2 + px(12)
	w := boardW + 2*margin
	h := boardH + 2*margin + captionH
	if int64(w)*int64(h) > 400_000_000 {
		return nil, 0, 0, fmt.Errorf("the board would be %dx%d px: choose fewer squares, smaller squares or a lower --dpi", w, h)
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := range boardH {
		j := int(float64(y) / sq)
		for x := range boardW {
			i := int(float64(x) / sq)
			if (i+j)%2 == 0 {
				img.Pix[(margin+y)*img.Stride+margin+x] = 0
			}
		}
	}
	top := margin + boardH + px(4)
	// 100 mm scale bar with a tick every 10 mm.
	bar := px(100)
	fill(img, margin, top, bar, max(2, px(0.6)))
	for k := 0; k <= 10; k++ {
		tick := px(2)
		if k%5 == 0 {
			tick = px(4)
		}
		fill(img, margin+k*bar/10-max(1, px(0.3))/2, top, max(1, px(0.3)), tick)
	}
	caption := fmt.Sprintf("tableref board: %dx%d squares of %g mm = %dx%d inner corners. Bar: 100 mm.",
		s.cols, s.rows, s.squareMM, s.cols-1, s.rows-1)
	drawText(img, caption, margin, top+px(6), scale)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, 0, 0, fmt.Errorf("encoding the board: %w", err)
	}
	out, err := withPHYs(buf.Bytes(), s.dpi)
	return out, w, h, err
}

func fill(img *image.Gray, x, y, w, h int) {
	for yy := y; yy < y+h; yy++ {
		for xx := x; xx < x+w; xx++ {
			if image.Pt(xx, yy).In(img.Rect) {
				img.Pix[yy*img.Stride+xx] = 0
			}
		}
	}
}

// drawText writes s in the 7x13 bitmap font enlarged scale times.
func drawText(img *image.Gray, s string, x, y, scale int) {
	small := image.NewGray(image.Rect(0, 0, 7*len(s), 13))
	for i := range small.Pix {
		small.Pix[i] = 255
	}
	d := font.Drawer{Dst: small, Src: image.NewUniform(color.Gray{0}), Face: basicfont.Face7x13, Dot: fixed.P(0, 11)}
	d.DrawString(s)
	for sy := range 13 {
		for sx := range small.Rect.Dx() {
			if small.Pix[sy*small.Stride+sx] < 128 {
				fill(img, x+sx*scale, y+sy*scale, scale, scale)
			}
		}
	}
}

// withPHYs inserts a pHYs chunk (pixels per metre) after the IHDR chunk
// of a PNG.
func withPHYs(p []byte, dpi float64) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4
	if len(p) < ihdrEnd || string(p[12:16]) != "IHDR" {
		return nil, fmt.Errorf("encoding the board: unexpected PNG layout")
	}
	ppm := uint32(math.Round(dpi / 0.0254))
	chunk := make([]byte, 0, 21)
	chunk = binary.BigEndian.AppendUint32(chunk, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // unit: metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := append([]byte(nil), p[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, p[ihdrEnd:]...), nil
}
