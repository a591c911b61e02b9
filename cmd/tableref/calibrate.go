package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"tableref/calibration"
	"tableref/vision"
)

func init() {
	register(&command{
		name:    "calibrate",
		summary: "calibrate the camera and the table plane from photos of a printed chessboard",
		usage: `Usage: tableref calibrate --board COLSxROWS --square-mm MM [--plane IMAGE] [--lens FILE] [--out FILE] IMAGES...

Teaches tableref how the camera sees the table, so that it can measure in
centimetres. Print a chessboard ("tableref board" makes one), glue or tape
it flat, then:

 1. lens: take 10 to 20 photos of the board with the camera you will use,
    in the same resolution, the board held at different angles and places,
    filling much of the frame in some of them;
 2. table: lay the board flat on the table and take one photo with the
    camera where it will stay during the game (--plane). The board defines
    the table frame: the origin is its first inner corner (next to the
    black corner square), x along its rows, y along its columns, in cm.

--board counts INNER corners (one fewer than the squares each way: a board
of 10x7 squares has 9x6 inner corners). --square-mm is the side of one
printed square; measure it on the print with a ruler.

Without --plane, the first photo in which the board is found is taken as
the board lying on the table.
With --lens FILE and no IMAGES, the lens of an earlier calibration is kept
and only the table plane is measured again (after moving the camera).
Photos where the board is not found are skipped with a warning; at least
3 are needed. The result goes to --out (default: the user's configuration
directory, shown in the summary) and a summary is printed: RMS
reprojection error, how well the board fits and expected uncertainty in
mm. No photo can check --square-mm: measure the print.

Options:
  --board COLSxROWS  inner corners of the board (default 9x6)
  --square-mm MM     side of a square in millimetres (required)
  --plane IMAGE      photo of the board lying flat on the table
  --lens FILE        reuse the lens of this calibration file
  --out FILE         where to write the calibration
  --format FORMAT    text (default) or json: the summary's form

Examples:
  tableref calibrate --board 9x6 --square-mm 30 --plane table.jpg shots/*.jpg
  tableref calibrate --board 9x6 --square-mm 25 --out cam.json left*.jpg
  tableref calibrate --board 9x6 --square-mm 30 --lens cam.json --plane moved.jpg --out cam2.json
`,
		run: runCalibrate,
	})
}

type calibrateOpts struct {
	board      calibration.Board
	plane      string
	lens, out  string
	format     string
	images     []string
	defaultOut bool
}

func parseCalibrate(args []string) (calibrateOpts, error) {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	board := fs.String("board", "9x6", "")
	square := fs.Float64("square-mm", 0, "")
	var o calibrateOpts
	fs.StringVar(&o.plane, "plane", "", "")
	fs.StringVar(&o.lens, "lens", "", "")
	fs.StringVar(&o.out, "out", "", "")
	fs.StringVar(&o.format, "format", "text", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return o, err
	}
	o.images = pos
	cols, rows, err := parseSize(*board)
	if err != nil {
		return o, usageError("--board: %v", err)
	}
	o.board = calibration.Board{Cols: cols, Rows: rows, SquareMM: *square}
	if *square == 0 {
		return o, usageError("--square-mm is required: the side of one printed square in millimetres")
	}
	if err := o.board.Validate(); err != nil {
		return o, usageError("%v", err)
	}
	if o.format != "text" && o.format != "json" {
		return o, usageError("unknown format %q: use text or json", o.format)
	}
	switch {
	case o.lens == "" && len(o.images) == 0:
		return o, usageError("give the photos of the board (or --lens FILE with --plane IMAGE)")
	case o.lens != "" && len(o.images) > 0:
		return o, usageError("--lens reuses a calibrated lens: give no lens photos with it")
	case o.lens != "" && o.plane == "":
		return o, usageError("--lens needs --plane: the photo of the board lying on the table")
	}
	if o.out == "" {
		if o.out, err = calibration.DefaultPath(); err != nil {
			return o, err
		}
		o.defaultOut = true
	}
	if st, err := os.Stat(o.out); err == nil && st.IsDir() {
		return o, usageError("--out %s is a directory: give the calibration file's name, such as %s", o.out, filepath.Join(o.out, "calibration.json"))
	}
	// The calibration must not be written over a photo it is read from.
	for _, in := range append([]string{o.plane, o.lens}, o.images...) {
		if in != "" && sameFile(o.out, in) {
			return o, usageError("--out %s is one of the input files: write the calibration to another file", o.out)
		}
	}
	return o, nil
}

// parseSize reads "9x6".
func parseSize(s string) (int, int, error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	c, err1 := strconv.Atoi(strings.TrimSpace(a))
	r, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || c <= 0 || r <= 0 {
		return 0, 0, fmt.Errorf("%q is not a size like 9x6", s)
	}
	return c, r, nil
}

func runCalibrate(args []string, e *env) error {
	o, err := parseCalibrate(args)
	if err != nil {
		return err
	}
	lens, firstView, err := calibrateLens(o, e)
	if err != nil {
		return err
	}
	plane := o.plane
	if plane == "" {
		plane = firstView
	}
	g, err := calibration.ReadGray(plane)
	if err != nil {
		return err
	}
	if g.Width != lens.Width || g.Height != lens.Height {
		return fmt.Errorf("%s is %dx%d but the lens was calibrated on %dx%d images: use the same camera mode for every photo",
			plane, g.Width, g.Height, lens.Width, lens.Height)
	}
	corners, err := calibration.FindCorners(g, o.board)
	if err != nil {
		return fmt.Errorf("table plane %s: %w", plane, err)
	}
	cal, err := calibration.FromBoard(lens, o.board, corners)
	if err != nil {
		return fmt.Errorf("table plane %s: %w", plane, err)
	}
	cal.Quality.BoardWhite = calibration.BoardWhite(g, o.board, corners)
	if ch, err := calibration.ReadChannels(plane); err == nil {
		cal.Quality.BoardWhiteRGB = calibration.BoardWhiteRGB(ch, o.board, corners)
	}
	if err := calibration.Save(o.out, cal); err != nil {
		return err
	}
	if o.format == "json" {
		return writeJSON(e.stdout, calibrationSummary(cal, o.out))
	}
	return writeCalibrationText(e.stdout, cal, o.out, plane)
}

// calibrateLens calibrates from the photos, or loads the lens of --lens.
// It returns the first photo in which the board was found too ("" with
// --lens): the table plane when no --plane is given, as a first photo
// that was skipped must not throw the lens away.
func calibrateLens(o calibrateOpts, e *env) (calibration.Lens, string, error) {
	if o.lens != "" {
		c, err := calibration.Load(o.lens)
		if err != nil {
			return calibration.Lens{}, "", err
		}
		return c.Lens, "", nil
	}
	var views [][]calibration.Pixel
	var viewFiles []string
	var w, h int
	var first string
	var firstErr error
	found := 0
	bar := newProgress(e.stderr, len(o.images))
	for i, path := range o.images {
		bar.show(i, filepath.Base(path))
		g, err := calibration.ReadGray(path)
		if err != nil {
			bar.done()
			return calibration.Lens{}, "", err
		}
		c, err := calibration.FindCorners(g, o.board)
		// The camera mode is that of the first photo showing the board:
		// a photo without it (of another camera, say) is skipped below
		// whatever its size.
		if err == nil {
			if first == "" {
				first, w, h = path, g.Width, g.Height
			} else if g.Width != w || g.Height != h {
				bar.done()
				return calibration.Lens{}, "", fmt.Errorf("images of different sizes: %s is %dx%d, %s is %dx%d; every photo must come from the same camera mode",
					first, w, h, path, g.Width, g.Height)
			}
		}
		if err != nil {
			bar.warn(fmt.Sprintf("%s: %v (skipped)", path, err))
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: %w", path, err)
			}
			if len(o.images) == 1 {
				bar.done()
				return calibration.Lens{}, "", fmt.Errorf("%s: %w", path, err)
			}
			continue
		}
		// The same pose twice (a photo given twice, or re-taken without
		// moving the board) adds nothing but weight: the lens fitted to
		// it looks good and is wrong. CalibrateLens leaves such views
		// out too; here the user learns which photos they were.
		found++
		if j := calibration.DuplicateOf(views, c); j >= 0 {
			bar.warn(fmt.Sprintf("%s: the same view as %s, the board has not moved (skipped)", path, viewFiles[j]))
			continue
		}
		views = append(views, c)
		viewFiles = append(viewFiles, path)
	}
	bar.show(len(o.images), "")
	bar.done()
	if len(views) == 0 {
		return calibration.Lens{}, "", fmt.Errorf("the board was found in none of the %d photos; the first said: %w", len(o.images), firstErr)
	}
	if len(views) < calibration.MinViews {
		return calibration.Lens{}, "", fmt.Errorf("the %dx%d board was found in %d of %d photos, in %d different pose(s); at least %d different poses are needed\n%s",
			o.board.Cols, o.board.Rows, found, len(o.images), len(views), calibration.MinViews, lensAdvice)
	}
	lens, err := calibration.CalibrateLens(views, o.board, w, h)
	if err != nil {
		return calibration.Lens{}, "", fmt.Errorf("the lens from %d photos: %w\n%s", len(views), err, lensAdvice)
	}
	return lens, viewFiles[0], nil
}

// lensAdvice follows a lens calibration that failed: nothing is saved,
// and more varied photos are what helps.
const lensAdvice = `Nothing was saved. Take more photos (10 to 20), the board tilted a different way in each
(left, right, towards and away from the camera), in different parts of the frame, some filling much of it.`

// progress draws a bar on a terminal line: "[=====     ] 7/14 left07.jpg".
type progress struct {
	w     io.Writer
	total int
	last  int
}

func newProgress(w io.Writer, total int) *progress { return &progress{w: w, total: total} }

func (p *progress) show(i int, name string) {
	const width = 30
	fill := width * i / max(p.total, 1)
	line := fmt.Sprintf("\r[%s%s] %d/%d %s", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), i, p.total, name)
	pad := max(p.last-len(line), 0)
	fmt.Fprint(p.w, line+strings.Repeat(" ", pad))
	p.last = len(line)
}

func (p *progress) warn(msg string) {
	fmt.Fprintf(p.w, "\r%s\r%s\n", strings.Repeat(" ", p.last), msg)
	p.last = 0
}

func (p *progress) done() { fmt.Fprintln(p.w) }

type calibrationJSON struct {
	File       string    `json:"file"`
	Width      int       `json:"width"`
	Height     int       `json:"height"`
	Lens       string    `json:"lens"`
	Views      int       `json:"views"`
	RMSPx      float64   `json:"rms_px"`
	PlaneRMSPx float64   `json:"plane_rms_px"`
	Scale      float64   `json:"scale"`
	CameraCm   float64   `json:"camera_height_cm"`
	CentreMM   float64   `json:"uncertainty_centre_mm"`
	EdgeMM     float64   `json:"uncertainty_edge_mm"`
	CornerMM   float64   `json:"uncertainty_corner_mm"`
	FX         float64   `json:"fx"`
	FY         float64   `json:"fy"`
	Distortion []float64 `json:"distortion"`
	// BoardWhite is the grey of the board's white squares in the plane's
	// photograph (0: not measured); Brighten how much detect brightens
	// frames for it (1: not at all).
	BoardWhite float64 `json:"board_white"`
	Brighten   float64 `json:"brighten"`
	// BoardWhiteRGB is the white's red, green and blue; WhiteBalance the
	// gains detect applies on them (ones: none).
	BoardWhiteRGB [3]float64 `json:"board_white_rgb"`
	WhiteBalance  [3]float64 `json:"white_balance"`
	WhiteClipped  bool       `json:"white_clipped"`
}

func calibrationSummary(c *calibration.Calibration, path string) calibrationJSON {
	l, q := c.Lens, c.Quality
	return calibrationJSON{File: path, Width: l.Width, Height: l.Height, Lens: l.Source, Views: l.Views,
		RMSPx: q.RMSPx, PlaneRMSPx: q.PlaneRMSPx, Scale: q.Scale, CameraCm: float64(c.Plane.EyeHeight),
		CentreMM: q.Uncertainty.CentreMM, EdgeMM: q.Uncertainty.EdgeMM, CornerMM: q.Uncertainty.CornerMM,
		FX: l.FX, FY: l.FY, Distortion: []float64{l.K1, l.K2, l.P1, l.P2, l.K3},
		BoardWhite: q.BoardWhite, Brighten: vision.ExposureGain(c), BoardWhiteRGB: q.BoardWhiteRGB, WhiteBalance: vision.WhiteBalance(c),
		WhiteClipped: vision.WhiteClipped(q.BoardWhiteRGB)}
}

func writeCalibrationText(w io.Writer, c *calibration.Calibration, path, plane string) error {
	l, q := c.Lens, c.Quality
	var b strings.Builder
	fmt.Fprintf(&b, "Calibration written to %s\n\n", path)
	fmt.Fprintf(&b, "Camera       %dx%d, fx %.1f fy %.1f px, centre (%.1f, %.1f), distortion k1 %.3f k2 %.3f k3 %.3f\n",
		l.Width, l.Height, l.FX, l.FY, l.CX, l.CY, l.K1, l.K2, l.K3)
	if l.Views > 0 {
		fmt.Fprintf(&b, "Lens RMS     %.3f px over %d views (%s)\n", q.RMSPx, l.Views, judgeRMS(q.RMSPx))
	} else {
		fmt.Fprintf(&b, "Lens         %s, not calibrated from views here\n", l.Source)
	}
	fmt.Fprintf(&b, "Table plane  %s: %d corners, RMS %.3f px; camera %.1f cm above the table\n",
		filepath.Base(plane), q.PlanePoints, q.PlaneRMSPx, float64(c.Plane.EyeHeight))
	if c.Board != nil {
		// The lens and the plane are both fitted to the declared square,
		// so this figure cannot tell a wrong --square-mm (it reads the
		// same for any) nor a print stretched one way (3 % shows as
		// 0.2 %): say so.
		fmt.Fprintf(&b, "Board fit    squares seen through the calibration: %.4f x the declared %g mm (rows %.4f, columns %.4f)\n",
			q.Scale, c.Board.SquareMM, q.ScaleX, q.ScaleY)
		fmt.Fprintf(&b, "             (photos cannot check the square size: measure squares both ways on the print with a ruler)\n")
	}
	fmt.Fprintf(&b, "Uncertainty  one point, 1 sigma: %.2f mm at the centre, %.2f mm at the edges, %.2f mm in the corners of the view\n",
		q.Uncertainty.CentreMM, q.Uncertainty.EdgeMM, q.Uncertainty.CornerMM)
	if q.BoardWhite > 0 {
		judge := "good"
		if g := vision.ExposureGain(c); g > 1 {
			judge = fmt.Sprintf("dim: detection will brighten frames %.2fx; more light or a brighter camera setting is better", g)
		}
		fmt.Fprintf(&b, "Exposure     the board's white squares read %.0f of 255 (%s)\n", q.BoardWhite, judge)
	} else if c.Board != nil {
		fmt.Fprintf(&b, "Exposure     not measured: the board's white squares are unevenly lit (a shadow or a glare across the board?); photograph it evenly lit for detection to correct a dim or coloured light\n")
	}
	if w := q.BoardWhiteRGB; w != [3]float64{} {
		judge := "white"
		if wb := vision.WhiteBalance(c); wb != [3]float64{1, 1, 1} {
			judge = fmt.Sprintf("coloured: detection will scale red %.2fx, green %.2fx, blue %.2fx; a whiter light or the camera's white balance is better", wb[0], wb[1], wb[2])
		}
		if vision.WhiteClipped(w) {
			judge += "; a channel is at the top of the camera's range, so the light's colour may be read short: lower the camera's exposure"
		}
		fmt.Fprintf(&b, "Light        the board's white reads red %.0f, green %.0f, blue %.0f (%s)\n", w[0], w[1], w[2], judge)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func judgeRMS(rms float64) string {
	switch {
	case rms < 0.5:
		return "good"
	case rms < 1:
		return "fair: sharper photos or a flatter board would help"
	}
	return "poor: check that the board is flat and the photos sharp"
}
