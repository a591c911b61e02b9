package vision

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// Without a calibration a token is a region of a kind's colour of a
// chit's shape: solid discs, squares and bars are; triangles, rings, arcs
// and crossings of lines are not.
func TestMeasuredTokenShapes(t *testing.T) {
	disc := func(r float64) func(x, y float64) bool {
		return func(x, y float64) bool { return math.Hypot(x, y) <= r }
	}
	cases := []struct {
		name  string
		in    func(x, y float64) bool
		shape string // "" for none; a disc may measure "compact" (round or square)
	}{
		{"disc", disc(7), "compact"},
		{"small disc", disc(3.5), "compact"},
		{"square", func(x, y float64) bool { return math.Abs(x) <= 6 && math.Abs(y) <= 6 }, "square"},
		{"bar", func(x, y float64) bool { return math.Abs(x) <= 12 && math.Abs(y) <= 3 }, "long"},
		{"triangle", func(x, y float64) bool { return y >= -6 && y <= 6 && math.Abs(x) <= (6-y)*0.6 }, ""},
		{"ring", func(x, y float64) bool { r := math.Hypot(x, y); return r >= 6 && r <= 8 }, ""},
		{"crossing of two lines", func(x, y float64) bool { return math.Abs(x) <= 1 || math.Abs(y) <= 1 }, ""},
		{"arc", func(x, y float64) bool { r := math.Hypot(x, y); return r >= 7 && r <= 10 && y > 0 }, ""},
		{"scatter", func(x, y float64) bool { return math.Hypot(x, y) <= 8 && (int(x)+int(y))%3 == 0 }, ""},
	}
	pl, err := newWorkPlane(64, 64, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &Detector{plane: pl}
	for _, tc := range cases {
		var px []pt
		for y := -12.0; y <= 12; y++ {
			for x := -12.0; x <= 12; x++ {
				if tc.in(x, y) {
					px = append(px, pt{x + 32, y + 32})
				}
			}
		}
		s := &tokenShape{}
		ok := d.measureToken(s, px)
		if got := map[bool]string{true: s.shape, false: ""}[ok]; got != tc.shape {
			t.Errorf("%s: measured as %q, want %q (fill %.2f)", tc.name, got, tc.shape, s.fill)
		}
	}
}

// Without a calibration, chits on a plain table are found by their colour
// and shape; a ring and an arc of a chit's colour and the joints of tiles
// of a boulder's grey are not chits.
func TestUncalibratedTokens(t *testing.T) {
	mat := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 110, 50, 0), 540, 960, gocv.MatTypeCV8UC3)
	defer mat.Close()
	kind := map[string]TokenKind{}
	for _, k := range DefaultTokenCatalogue {
		kind[k.Kind] = k
	}
	bgr := func(k string) color.RGBA {
		c := kind[k].Colour
		return color.RGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), 255}
	}
	// Tile joints of the boulder's grey, a few pixels wide, on part of
	// the table.
	for x := 600; x <= 940; x += 40 {
		gocv.Line(&mat, image.Pt(x, 20), image.Pt(x, 520), bgr("boulder"), 3)
	}
	for y := 20; y <= 520; y += 40 {
		gocv.Line(&mat, image.Pt(600, y), image.Pt(940, y), bgr("boulder"), 3)
	}
	// The chits.
	gocv.Rectangle(&mat, image.Rect(100, 100, 126, 126), bgr("damage"), -1)
	gocv.Circle(&mat, image.Pt(250, 120), 12, bgr("gold"), -1)
	gocv.FillPoly(&mat, gocv.NewPointsVectorFromPoints([][]image.Point{{{100, 300}, {150, 300}, {150, 314}, {100, 314}}}), bgr("arrow"))
	// Not chits: a fireball-orange ring, an arc of damage red.
	gocv.Circle(&mat, image.Pt(400, 120), 20, bgr("fireball"), 4)
	gocv.Ellipse(&mat, image.Pt(400, 350), image.Pt(30, 30), 0, 0, 160, bgr("damage"), 5)
	want := map[image.Point]string{{113, 113}: "damage", {250, 120}: "gold", {125, 307}: "arrow"}

	d := NewDetector(Options{})
	defer d.Close()
	res, err := d.Detect(mat)
	if err != nil {
		t.Fatal(err)
	}
	for at, k := range want {
		found := false
		for _, tk := range res.Layout.Tokens {
			if math.Hypot(tk.Pixel.PX-float64(at.X), tk.Pixel.PY-float64(at.Y)) < 4 {
				found = true
				if tk.Kind != k {
					t.Errorf("the %s at %v was read as %s", k, at, tk.Kind)
				}
			}
		}
		if !found {
			t.Errorf("the %s at %v was not found", k, at)
		}
	}
	if len(res.Layout.Tokens) != len(want) {
		for _, tk := range res.Layout.Tokens {
			t.Logf("token %s at (%.0f, %.0f) r %.1f", tk.Kind, tk.Pixel.PX, tk.Pixel.PY, tk.Pixel.PR)
		}
		t.Errorf("%d tokens, want %d", len(res.Layout.Tokens), len(want))
	}
}

// A measured token's outline must be an edge of the image: the share of
// its boundary pixels within a pixel of one.
func TestRegionOnEdges(t *testing.T) {
	const w, h = 20, 20
	labels := make([]int32, w*h)
	var px []pt
	for y := 5; y < 15; y++ {
		for x := 5; x < 15; x++ {
			labels[y*w+x] = 1
			px = append(px, pt{float64(x), float64(y)})
		}
	}
	edgesAt := func(on func(x, y int) bool) []byte {
		e := make([]byte, w*h)
		for y := range h {
			for x := range w {
				if on(x, y) {
					e[y*w+x] = 255
				}
			}
		}
		return e
	}
	cases := []struct {
		name  string
		edges []byte
		want  float64
	}{
		{"outline on edges", edgesAt(func(x, y int) bool { return x == 4 || x == 15 || y == 4 || y == 15 }), 1},
		{"no edges", edgesAt(func(x, y int) bool { return false }), 0},
		{"edges two pixels off", edgesAt(func(x, y int) bool { return x == 2 || x == 17 || y == 2 || y == 17 }), 0},
		{"edges on the left and right only", edgesAt(func(x, y int) bool { return x == 4 || x == 15 }), 20.0 / 36},
	}
	for _, tc := range cases {
		if got := regionOnEdges(labels, 1, w, h, px, tc.edges); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %.3f, want %.3f", tc.name, got, tc.want)
		}
	}
}
