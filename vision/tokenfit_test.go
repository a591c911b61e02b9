package vision

import (
	"image"
	"image/color"
	"math"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tableref/models"
	"tableref/vision/synth"
)

// TestFilledPatchFillsHolesOnly: a region of unset pixels enclosed by set
// ones is filled; one that reaches the patch's border, on any side, even
// by a single pixel, is not.
func TestFilledPatchFillsHolesOnly(t *testing.T) {
	tests := []struct {
		name       string
		rows, want []string
	}{
		{
			"a ring around a hole, an open notch",
			[]string{
				".......",
				".#####.",
				".#...#.",
				".#...#.",
				".#...#.",
				".##.##.",
				"...#...",
			},
			[]string{
				".......",
				".#####.",
				".#####.",
				".#####.",
				".#####.",
				".#####.",
				"...#...",
			},
		},
		{
			"a gap on each border",
			[]string{
				"##.##",
				"#####",
				".#.#.",
				"#####",
				"##.##",
			},
			[]string{
				"##.##",
				"#####",
				".###.",
				"#####",
				"##.##",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, h := len(tc.rows[0]), len(tc.rows)
			mask := make([]byte, w*h)
			for y, r := range tc.rows {
				for x, c := range r {
					if c == '#' {
						mask[y*w+x] = 255
					}
				}
			}
			d := &Detector{plane: &workPlane{w: w, h: h}}
			got := d.filledPatch(mask, 0, 0, w, h)
			for y, r := range tc.want {
				for x, c := range r {
					if (got[y*w+x] != 0) != (c == '#') {
						t.Errorf("pixel (%d,%d) = %d, want set %v", x, y, got[y*w+x], c == '#')
					}
				}
			}
		})
	}
}

func TestTokenTemplateShapes(t *testing.T) {
	for _, k := range DefaultTokenCatalogue {
		tp := newTokenTemplate(k, 0.1)
		if len(tp.inside) == 0 || len(tp.ring) != len(tp.side) || len(tp.edge) != len(tp.edgeN) {
			t.Fatalf("%s: %d inside, %d ring, %d sides, %d edge, %d normals", k.Kind, len(tp.inside), len(tp.ring), len(tp.side), len(tp.edge), len(tp.edgeN))
		}
		// Every inside sample is within the outline, every ring sample
		// beyond it, on the token's own axes.
		for _, q := range tp.inside {
			if k.Shape == "round" && q.len() > k.Length/2 || k.Shape != "round" && (math.Abs(q.X) > k.Length/2 || math.Abs(q.Y) > k.Width/2) {
				t.Errorf("%s: inside sample %v outside the chit", k.Kind, q)
			}
		}
		for _, q := range tp.ring {
			if k.Shape == "round" && q.len() < k.Length/2+tokenGap-1e-9 || k.Shape != "round" && math.Abs(q.X) < k.Length/2+tokenGap-1e-9 && math.Abs(q.Y) < k.Width/2+tokenGap-1e-9 {
				t.Errorf("%s: ring sample %v not beyond the gap", k.Kind, q)
			}
		}
		wantAngles := map[string]int{"round": 1, "square": 12, "long": 24}[k.Shape]
		if len(tp.angles) != wantAngles {
			t.Errorf("%s: %d angles, want %d", k.Kind, len(tp.angles), wantAngles)
		}
	}
}

// TestTokensOnAPlainTable draws chits of the catalogue on an empty
// rendered table, with a patch of a chit's colour too large to be one,
// and checks that each chit is found where it lies, of its kind, and the
// patch is not.
func TestTokensOnAPlainTable(t *testing.T) {
	_, _, cal := renderScene(t, 21, synth.Easy, synth.Options{Disks: 1})
	// A table of green felt, lit from the left.
	mat := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 110, 50, 0), 1080, 1920, gocv.MatTypeCV8UC3)
	defer mat.Close()
	for x := 0; x < 1920; x += 8 {
		shade := 1 - 0.3*float64(x)/1920
		gocv.Rectangle(&mat, image.Rect(x, 0, x+8, 1080), color.RGBA{uint8(60 * shade), uint8(110 * shade), uint8(50 * shade), 255}, -1)
	}
	poly := func(c pt, l, w, a float64) []image.Point {
		ax, n := pt{math.Cos(a), math.Sin(a)}, pt{-math.Sin(a), math.Cos(a)}
		var out []image.Point
		for _, sg := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			q := c.add(ax.scale(sg[0] * l / 2)).add(n.scale(sg[1] * w / 2))
			p, err := cal.ImageFromTable(models.TablePoint{X: models.Centimetres(q.X), Y: models.Centimetres(q.Y)}, 0)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, image.Pt(int(math.Round(p.U)), int(math.Round(p.V))))
		}
		return out
	}
	bgr := func(c [3]float64) color.RGBA { return color.RGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), 255} }
	kind := map[string]TokenKind{}
	for _, k := range DefaultTokenCatalogue {
		kind[k.Kind] = k
	}
	chits := []struct {
		kind string
		at   pt
		a    float64
	}{
		{"damage", pt{-20, -10}, 0.5},
		{"arrow", pt{0, 10}, 1.1},
		{"gold", pt{20, -5}, 0},
		{"fireball", pt{-10, 15}, 0},
	}
	for _, c := range chits {
		k := kind[c.kind]
		if k.Shape == "round" {
			ctr, _ := cal.ImageFromTable(models.TablePoint{X: models.Centimetres(c.at.X), Y: models.Centimetres(c.at.Y)}, 0)
			edge, _ := cal.ImageFromTable(models.TablePoint{X: models.Centimetres(c.at.X + k.Length/2), Y: models.Centimetres(c.at.Y)}, 0)
			r := int(math.Round(math.Hypot(edge.U-ctr.U, edge.V-ctr.V)))
			gocv.Circle(&mat, image.Pt(int(ctr.U), int(ctr.V)), r, bgr(k.Colour), -1)
			gocv.Circle(&mat, image.Pt(int(ctr.U), int(ctr.V)), r/3, color.RGBA{240, 240, 240, 255}, -1) // print
			continue
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{poly(c.at, k.Length, k.Width, c.a)})
		gocv.FillPoly(&mat, pv, bgr(k.Colour))
		pv.Close()
		line := poly(c.at, k.Length*0.7, 0.1, c.a) // a printed line
		pl := gocv.NewPointsVectorFromPoints([][]image.Point{line})
		gocv.FillPoly(&mat, pl, color.RGBA{20, 20, 20, 255})
		pl.Close()
	}
	// A red patch of the damage chit's colour, 5 x 3 cm: a painting, not
	// a chit.
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{poly(pt{25, 15}, 5, 3, 0.3)})
	gocv.FillPoly(&mat, pv, bgr(kind["damage"].Colour))
	pv.Close()
	// A disc of a fireball's size painted in one-pixel lines of red and
	// yellow: at detection size it blurs into the fireball's orange, in
	// the frame it is of neither.
	{
		c := pt{5, -15}
		ctr, _ := cal.ImageFromTable(models.TablePoint{X: models.Centimetres(c.X), Y: models.Centimetres(c.Y)}, 0)
		edge, _ := cal.ImageFromTable(models.TablePoint{X: models.Centimetres(c.X + kind["fireball"].Length/2), Y: models.Centimetres(c.Y)}, 0)
		r := math.Hypot(edge.U-ctr.U, edge.V-ctr.V)
		red, yellow := color.RGBA{242, 40, 26, 255}, color.RGBA{242, 216, 26, 255}
		for y := int(ctr.V - r); y <= int(ctr.V+r); y++ {
			half := math.Sqrt(max(0, r*r-(float64(y)-ctr.V)*(float64(y)-ctr.V)))
			col := red
			if y%2 == 0 {
				col = yellow
			}
			gocv.Line(&mat, image.Pt(int(math.Round(ctr.U-half)), y), image.Pt(int(math.Round(ctr.U+half)), y), col, 1)
		}
	}

	d := NewDetector(Options{Calibration: cal})
	defer d.Close()
	res, err := d.Detect(mat)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chits {
		found := false
		for _, tk := range res.Layout.Tokens {
			if dd := math.Hypot(float64(tk.X)-c.at.X, float64(tk.Y)-c.at.Y); dd < 0.2 {
				found = true
				if tk.Kind != c.kind {
					t.Errorf("the %s at %v was read as %s", c.kind, c.at, tk.Kind)
				}
			}
		}
		if !found {
			t.Errorf("the %s at %v was not found (got %+v)", c.kind, c.at, res.Layout.Tokens)
		}
	}
	if len(res.Layout.Tokens) != len(chits) {
		t.Errorf("%d tokens, want %d: %+v", len(res.Layout.Tokens), len(chits), res.Layout.Tokens)
	}
}

// A circle found on a token (its outline, widened by blur, its side and
// its shadow) is not a disk; a spell under a token, which shows its rim,
// is.
func TestTokenOutline(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	boulder := &tokenShape{centre: pt{10, 10}, length: 2, width: 2, shape: "round", kind: "boulder"}
	arrow := &tokenShape{centre: pt{30, 10}, axis: pt{1, 0}, length: 3.2, width: 0.9, shape: "long", kind: "arrow"}
	damage := &tokenShape{centre: pt{50, 10}, axis: pt{0, 1}, length: 1.6, width: 1.6, shape: "square", kind: "damage"}
	toks := []*tokenShape{boulder, arrow, damage}
	cases := []struct {
		name string
		c    circle
		rim  bool // whether the circle shows a rim
		want bool
	}{
		{"a boulder's outline drawn to its shadow's side", circle{pt{10.24, 10}, 1.16}, true, true},
		{"a damage chit's corners", circle{pt{50.1, 10.1}, 1.18}, true, true},
		{"a spell under a boulder, snapped to its size", circle{pt{10.05, 10}, 1.26}, true, false},
		{"a spell-sized circle round a damage chit, the table inside it", circle{pt{50.05, 10}, 1.25}, false, true},
		{"a spell-sized circle round a boulder, the table inside it", circle{pt{10.05, 10}, 1.22}, false, true},
		// Beyond 1.25 times its reach, up to 1.3, only a circle showing
		// no rim is the chit's outline.
		{"a boulder's outline drawn out to 1.28 of it, no rim", circle{pt{10.05, 10}, 1.28}, false, true},
		{"a spell under a boulder, measured 2 % large", circle{pt{10.05, 10}, 1.28}, true, false},
		{"a circle 1.35 times a boulder's, no rim", circle{pt{10.05, 10}, 1.35}, false, false},
		{"a spell under an arrow, measured 6% large", circle{pt{30.2, 10}, 1.32}, true, false},
		{"a circle far from any token", circle{pt{70, 10}, 1.16}, false, false},
		{"a circle off the token's centre", circle{pt{10.6, 10}, 1.16}, false, false},
		{"a creature under a boulder", circle{pt{10.5, 10}, 2.54}, false, false},
		{"a circle inside the boulder's print", circle{pt{10, 10}, 0.6}, false, false},
	}
	for _, tc := range cases {
		rim := func(diskFit) bool { return tc.rim }
		if got := d.tokenOutline(diskFit{c: tc.c}, toks, rim); got != tc.want {
			t.Errorf("%s: token outline %v, want %v", tc.name, got, tc.want)
		}
	}
}

// outlineOnEdges stopped at a threshold answers on the same side of it
// as the full count, at every place and angle of every kind on a
// rendered table.
func TestOutlineOnEdgesThreshold(t *testing.T) {
	_, img, cal := renderScene(t, 3, synth.Medium, synth.Options{})
	d, _ := warmDetector(t, img, cal)
	edges, err := d.edges.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	pl := d.plane
	// The local mapping at the frame's centre is close enough for the
	// test: what is compared is one count against another.
	jx, jy := pt{1 / pl.pixel, 0}, pt{0, 1 / pl.pixel}
	checked, decidedEarly := 0, 0
	for ti := range d.templates {
		tpl := &d.templates[ti]
		for y := 20; y < pl.h-20; y += 7 {
			for x := 20; x < pl.w-20; x += 7 {
				c := pt{float64(x), float64(y)}
				a := tpl.angles[(x+y)%len(tpl.angles)]
				exact := d.outlineOnEdges(tpl, c, a, jx, jy, edges, -1, nil)
				for _, least := range []float64{0, 0.3, tokenGateEdge, tokenMinEdge - 2*tokenCoarseSlack, 0.7, tokenMinEdge, 1} {
					got := d.outlineOnEdges(tpl, c, a, jx, jy, edges, least, nil)
					if (got >= least) != (exact >= least) {
						t.Fatalf("%s at %v angle %.2f: %.3f with threshold %.2f, %.3f counted in full",
							tpl.kind.Kind, c, a, got, least, exact)
					}
					if got != exact {
						decidedEarly++
					}
					checked++
				}
			}
		}
	}
	if decidedEarly == 0 {
		t.Errorf("no count of %d stopped early", checked)
	}
}

// A table of a grey kind's colour joins every chit lying on it into one
// region, in which a small coloured chit's outline is too faint at
// detection size to part it: the other kinds' colours are labelled again
// without the table's. Rendered scene: hard tier, seed 8, a grey tiled
// floor with a gold coin and an arrow lying on it, both missed before.
func TestColouredChitsOnATableOfAKindsColour(t *testing.T) {
	s, got := detectScene(t, 8, synth.Hard)
	colour := map[string][3]float64{}
	for _, k := range DefaultTokenCatalogue {
		colour[k.Kind] = k.Colour
	}
	n := 0
	for _, want := range s.Truth.Tokens {
		if len(want.Touches) > 0 || colourless(colour[want.Kind]) {
			continue
		}
		n++
		found := false
		for _, tk := range got.Tokens {
			if math.Hypot(float64(tk.X-want.X), float64(tk.Y-want.Y)) < 0.5 && tk.Kind == want.Kind {
				found = true
			}
		}
		if !found {
			t.Errorf("the %s at (%.1f, %.1f) on the table was not found", want.Kind, want.X, want.Y)
		}
	}
	if n < 2 {
		t.Fatalf("%d coloured chits lie on this table, want the gold coin and the arrow at least", n)
	}
}

// TestFrameOutlineShare: the outline of a chit a little lighter than a
// grained ground is a step of colour in the frame all round, where the
// same outline moved off the chit, or laid on the grain alone, is not.
func TestFrameOutlineShare(t *testing.T) {
	const w, h = 200, 120
	pix := make([]uint8, w*h*3)
	// Ground: stripes two pixels wide, 6 levels apart; a square chit
	// 30 pixels a side, 20 levels lighter, centred at (100, 60).
	for y := range h {
		for x := range w {
			v := 120 + 6*((x/2)%2)
			if x >= 85 && x < 115 && y >= 45 && y < 75 || x < 25 && y >= 45 && y < 75 {
				v = 140
			}
			i := (y*w + x) * 3
			pix[i], pix[i+1], pix[i+2] = uint8(v), uint8(v), uint8(v)
		}
	}
	colour := bgrImage{pix: pix, w: w, h: h}
	d := &Detector{plane: &workPlane{scale: 2}}
	// A 1.5 cm square at 10 detection pixels a cm: 15 detection pixels,
	// 30 in the frame.
	k := TokenKind{Kind: "square", Shape: "square", Length: 1.5, Width: 1.5}
	tpl := newTokenTemplate(k, 0.1)
	// The share, counted in full and with every threshold that may stop
	// the count early: a share at or above a threshold is exact.
	at := func(x, y float64) float64 {
		f := tokenFit{centre: pt{(x+0.5)/2 - 0.5, (y+0.5)/2 - 0.5}, jx: pt{10, 0}, jy: pt{0, 10}}
		share := d.frameOutlineShare(&tpl, f, colour, -1)
		for _, least := range []float64{0.1, 0.5, 0.85, 0.95} {
			if got := d.frameOutlineShare(&tpl, f, colour, least); (got >= least) != (share >= least) {
				t.Errorf("at (%g, %g), stopped at %g: %.3f, counted in full %.3f", x, y, least, got, share)
			}
		}
		return share
	}
	for _, c := range []struct {
		name     string
		x, y     float64
		lo, high float64
	}{
		{"on the chit", 99.5, 59.5, 0.95, 1},
		{"a chit cut by the frame's left border", 10, 60, 0.95, 1},
		{"a pixel off", 100.5, 60.5, 0.95, 1},
		{"off the chit", 160, 60, 0, 0.1},
		// Two thirds off: a third of each side crosses the chit's edge.
		{"two thirds off", 99.5, 80, 0.1, 0.3},
	} {
		if got := at(c.x, c.y); got < c.lo || got > c.high {
			t.Errorf("%s: share %.2f, want %.2f..%.2f", c.name, got, c.lo, c.high)
		}
	}
}

// greyImage is a w by h grey frame whose pixel (x, y) is of level v(x, y).
func greyImage(w, h int, v func(x, y int) uint8) bgrImage {
	pix := make([]uint8, w*h*3)
	for y := range h {
		for x := range w {
			i := (y*w + x) * 3
			pix[i], pix[i+1], pix[i+2] = v(x, y), v(x, y), v(x, y)
		}
	}
	return bgrImage{pix: pix, w: w, h: h}
}

// TestFrameOutlineShareOfASmallChit: a chit a few pixels across (a bolt
// far from a 720p camera) placed along a dark line of the ground (a
// tile's joint) has the line within frameStepReach pixels inside both
// its long sides; the line is not its outline. A chit of that size
// drawn on the ground shows its outline all round.
func TestFrameOutlineShareOfASmallChit(t *testing.T) {
	const w, h = 120, 120
	// A bolt 2.4 by 0.8 cm at 8 frame pixels a cm (4 detection pixels,
	// the frame at twice the detection size), centred at (60, 60), its
	// long axis along x: 19.2 by 6.4 pixels.
	image := func(chit bool) bgrImage {
		return greyImage(w, h, func(x, y int) uint8 {
			switch {
			case chit && math.Abs(float64(x)-60) < 9.6 && math.Abs(float64(y)-60) < 3.2:
				return 165
			case !chit && y == 60: // a joint a pixel wide
				return 100
			}
			return 140
		})
	}
	d := &Detector{plane: &workPlane{scale: 2}}
	tpl := newTokenTemplate(TokenKind{Kind: "bolt", Shape: "long", Length: 2.4, Width: 0.8}, 0.1)
	f := tokenFit{centre: pt{29.75, 29.75}, jx: pt{4, 0}, jy: pt{0, 4}}
	for _, c := range []struct {
		name     string
		img      bgrImage
		lo, high float64
	}{
		{"a bolt's outline", image(true), 0.95, 1},
		{"a joint along a bolt's middle", image(false), 0, 0.1},
	} {
		if got := d.frameOutlineShare(&tpl, f, c.img, -1); got < c.lo || got > c.high {
			t.Errorf("%s: share %.2f, want %.2f..%.2f", c.name, got, c.lo, c.high)
		}
	}
}

// TestFrameOutlineShareLooksPastAChitsShadow: a chit of the ground's own
// colour shows only by its shadow, a darker band beyond its outline; the
// shadow's end, where the colour brightens back to the ground's, does not
// count against the outline's step. A dark line on the ground beyond the
// outline (grain, print) does: it darkens before it brightens.
func TestFrameOutlineShareLooksPastAChitsShadow(t *testing.T) {
	const w, h = 200, 120
	// A square chit 30 pixels a side centred at (100, 60); band(b) is
	// the colour at b pixels outside it (0 inside it).
	image := func(chit uint8, band func(b int) uint8) bgrImage {
		return greyImage(w, h, func(x, y int) uint8 {
			if b := max(85-x, x-114, 45-y, y-74, 0); b > 0 {
				return band(b)
			}
			return chit
		})
	}
	d := &Detector{plane: &workPlane{scale: 2}}
	tpl := newTokenTemplate(TokenKind{Kind: "square", Shape: "square", Length: 1.5, Width: 1.5}, 0.1)
	f := tokenFit{centre: pt{49.75, 29.75}, jx: pt{10, 0}, jy: pt{0, 10}}
	for _, c := range []struct {
		name     string
		img      bgrImage
		lo, high float64
	}{
		{"a chit of the ground's colour in its shadow", image(140, func(b int) uint8 {
			if b <= 4 {
				return 100
			}
			return 140
		}), 0.95, 1},
		{"a chit beside a dark line on the ground", image(160, func(b int) uint8 {
			if b >= 5 && b <= 6 {
				return 100
			}
			return 140
		}), 0, 0.1},
	} {
		if got := d.frameOutlineShare(&tpl, f, c.img, -1); got < c.lo || got > c.high {
			t.Errorf("%s: share %.2f, want %.2f..%.2f", c.name, got, c.lo, c.high)
		}
	}
}

// TestCastsShadow: a chit casts its contact shadow just outside its
// outline; a badge printed flat in a disk's face does not.
func TestCastsShadow(t *testing.T) {
	const w, h = 200, 120
	// A square 30 pixels a side centred at (100, 60), 20 pixels a cm;
	// band(b) is the grey at b pixels outside it.
	image := func(band func(b int) uint8) bgrImage {
		return greyImage(w, h, func(x, y int) uint8 {
			if b := max(85-x, x-114, 45-y, y-74, 0); b > 0 {
				return band(b)
			}
			return 200
		})
	}
	d := &Detector{plane: &workPlane{scale: 2, pixel: 0.1}}
	tpl := newTokenTemplate(TokenKind{Kind: "square", Shape: "square", Length: 1.5, Width: 1.5}, 0.1)
	f := tokenFit{centre: pt{49.75, 29.75}, jx: pt{10, 0}, jy: pt{0, 10}}
	for _, c := range []struct {
		name string
		band func(b int) uint8
		want bool
	}{
		{"a chit and its shadow", func(b int) uint8 {
			if b <= 4 {
				return 110
			}
			return 140
		}, true},
		{"a badge on plain ground", func(int) uint8 { return 140 }, false},
		{"a badge in a lighter ring", func(b int) uint8 {
			if b <= 4 {
				return 150
			}
			return 140
		}, false},
		{"a chit whose shadow fades out", func(b int) uint8 { return uint8(min(140, 100+4*b)) }, true},
	} {
		if got := d.castsShadow(&tpl, f, image(c.band)); got != c.want {
			t.Errorf("%s: castsShadow %v, want %v", c.name, got, c.want)
		}
	}
	// Without a scale, or at 5 pixels a cm (the shadow's band narrower
	// than shadeResolved), there is nothing to judge by.
	for _, pixel := range []float64{0, 0.4} {
		if !(&Detector{plane: &workPlane{scale: 2, pixel: pixel}}).castsShadow(&tpl, f, image(func(int) uint8 { return 140 })) {
			t.Errorf("castsShadow at %g cm a pixel: false, want true", pixel/2)
		}
	}
}

// TestArrowsOnWoodAreFoundPastTheirShadow: an arrow lying on a wooden
// table of its own colour is found by its outline, a step of colour in
// the frame all round once its shadow's end is not held against it
// (rendered scenes: easy seed 38, hard seed 109).
func TestArrowsOnWoodAreFoundPastTheirShadow(t *testing.T) {
	expectTokensFound(t, []sceneRef{{synth.Easy, 38}, {synth.Hard, 109}}, "arrow on the table", func(tk models.Token) bool {
		return tk.Kind == "arrow" && len(tk.Touches) == 0
	})
}

// TestAFaintChitBesideADiskIsFound: a grey boulder on green felt against
// a disk's rim, whose outline the edges at detection size partly miss: it
// is found, and read as a boulder (rendered scene, medium tier, seed 207).
func TestAFaintChitBesideADiskIsFound(t *testing.T) {
	expectTokensFound(t, []sceneRef{{synth.Medium, 207}}, "boulder touching a disk", func(tk models.Token) bool {
		return tk.Kind == "boulder" && len(tk.Touches) > 0
	})
}

// sceneRef names a rendered scene: its tier and seed.
type sceneRef struct {
	tier synth.Tier
	seed uint64
}

// expectTokensFound detects each scene and checks that it holds a true
// token that pick selects (what names them), and that every such token is
// found, of its kind, within 5 mm.
func expectTokensFound(t *testing.T, scenes []sceneRef, what string, pick func(models.Token) bool) {
	t.Helper()
	for _, sc := range scenes {
		s, got := detectScene(t, sc.seed, sc.tier)
		wantTokensFound(t, sc, s.Truth.Tokens, got.Tokens, what, pick)
	}
}

// wantTokensFound checks that the true tokens of scene sc that pick
// picks (there must be some) are among those found, got.
func wantTokensFound(t *testing.T, sc sceneRef, truth, got []models.Token, what string, pick func(models.Token) bool) {
	t.Helper()
	n, missed := missedTokens(truth, got, pick)
	if n == 0 {
		t.Fatalf("%s seed %d: no %s in the scene", sc.tier, sc.seed, what)
	}
	for _, tk := range missed {
		t.Errorf("%s seed %d: the %s at (%.1f, %.1f) was not found", sc.tier, sc.seed, what, tk.X, tk.Y)
	}
}

// missedTokens tells how many of the true tokens are picked, and which of
// those no token found of the same kind lies within 5 mm of.
func missedTokens(truth, got []models.Token, pick func(models.Token) bool) (int, []models.Token) {
	n := 0
	var missed []models.Token
	for _, want := range truth {
		if !pick(want) {
			continue
		}
		n++
		found := false
		for _, tk := range got {
			found = found || tk.Kind == want.Kind && math.Hypot(float64(tk.X-want.X), float64(tk.Y-want.Y)) < 0.5
		}
		if !found {
			missed = append(missed, want)
		}
	}
	return n, missed
}

// TestChitEnds: along a chit's axis its two ends cross the line its
// length apart; grain running along the line, or ends too far apart, do
// not make a chit.
func TestChitEnds(t *testing.T) {
	const w, h = 80, 40
	type edge struct {
		x, y   int
		gx, gy int16
	}
	cases := []struct {
		name  string
		edges []edge
		want  float64
		ok    bool
	}{
		{"ends 20 apart, centred 3 right", []edge{{33, 20, 10, 0}, {53, 20, -10, 0}}, 3, true},
		{"ends on a line off the axis", []edge{{28, 22, 10, 0}, {48, 22, -10, 0}}, -2, true},
		{"grain along the line", []edge{{30, 20, 0, 10}, {35, 20, 0, 10}, {50, 20, 0, 10}}, 0, false},
		{"ends 30 apart", []edge{{25, 20, 10, 0}, {55, 20, -10, 0}}, 0, false},
		{"one end", []edge{{30, 20, 10, 0}}, 0, false},
	}
	for _, c := range cases {
		d := &Detector{plane: &workPlane{w: w, h: h}, gradX: make([]int16, w*h), gradY: make([]int16, w*h)}
		edges := make([]byte, w*h)
		for _, e := range c.edges {
			j := e.y*w + e.x
			edges[j], d.gradX[j], d.gradY[j] = 255, e.gx, e.gy
		}
		got, ok := d.chitEnds(pt{40, 20}, pt{1, 0}, pt{0, 2}, 20, edges)
		if ok != c.ok || ok && math.Abs(got-c.want) > 0.5 {
			t.Errorf("%s: got %.1f, %v; want %.1f, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestBrownArrowsOnAWoodenTable: an arrow chit of the colour of the wood it
// lies on is cut by the grain's edges into slivers, but its long sides are
// straight edges of its length and its ends cross them: it is found, as an
// arrow (rendered scenes, easy tier, seeds 207 and 209). Blur and grain
// break a side into straight runs of half its length or so (hard tier,
// seed 205): a run of 0.45 of it is enough to look for the chit's ends.
func TestBrownArrowsOnAWoodenTable(t *testing.T) {
	scenes := []sceneRef{{synth.Easy, 207}, {synth.Easy, 209}, {synth.Hard, 205}}
	expectTokensFound(t, scenes, "arrow alone on the table", func(tk models.Token) bool {
		return tk.Kind == "arrow" && len(tk.Touches) == 0
	})
}

// TestRoundChitsAtCirclesOfTheirSize: a grey boulder on a grey table,
// or on a disk's grey art, joins it in the colour mask, and no region
// parts it; its outline is a circle the disk search finds, and the chit
// is fitted there (rendered scenes: easy 202, on a disk; medium 1 and
// 209, hard 8, alone on grey tiles).
func TestRoundChitsAtCirclesOfTheirSize(t *testing.T) {
	scenes := []sceneRef{{synth.Easy, 202}, {synth.Medium, 1}, {synth.Medium, 209}, {synth.Hard, 8}}
	expectTokensFound(t, scenes, "boulder", func(tk models.Token) bool { return tk.Kind == "boulder" })
}

// TestChitsAreNotSpellsOfTheirSize: a chit whose outline (a boulder's
// edge, a square's corners), blurred and widened by its shadow, makes a
// circle of a spell's size is a token and not a disk: just inside that
// circle lies the table, not a spell's rim (rendered scenes, medium tier,
// seeds 304 and 318; hard tier, seed 4: a grey boulder on grey tiles
// whose circle measures 1.26 times its radius).
func TestChitsAreNotSpellsOfTheirSize(t *testing.T) {
	cases := []struct {
		tier synth.Tier
		seed uint64
	}{{synth.Medium, 304}, {synth.Medium, 318}, {synth.Hard, 4}}
	for _, tc := range cases {
		seed := tc.seed
		s, got := detectScene(t, seed, tc.tier)
		for _, g := range got.Disks {
			real := false
			for _, w := range s.Truth.Disks {
				if math.Hypot(float64(g.X-w.X), float64(g.Y-w.Y)) < 0.5*float64(w.R) {
					real = true
				}
			}
			if real {
				continue
			}
			for _, tk := range s.Truth.Tokens {
				if math.Hypot(float64(g.X-tk.X), float64(g.Y-tk.Y)) < 0.5 {
					t.Errorf("seed %d: the %s at (%.1f, %.1f) was taken for a disk of radius %.2f", seed, tk.Kind, tk.X, tk.Y, g.R)
				}
			}
		}
	}
}

// TestATileJointIsNotABolt: far from the camera, a grey tile's joint
// between a crossing joint and a gap is a straight edge of a bolt's length
// with ends, a few pixels across, on grey tiles of a bolt's colour: no
// chit is found there (rendered scene, medium tier, seed 213).
func TestATileJointIsNotABolt(t *testing.T) {
	s, got := detectScene(t, 213, synth.Medium)
	for _, tk := range got.Tokens {
		real := false
		for _, w := range s.Truth.Tokens {
			real = real || math.Hypot(float64(tk.X-w.X), float64(tk.Y-w.Y)) < 1
		}
		if !real {
			t.Errorf("a %s found at (%.1f, %.1f), where there is none", tk.Kind, tk.X, tk.Y)
		}
	}
}

// TestFireballsAmidArtAreFound: a fireball lying on a disk's art, its red
// ring of print of the damage marker's colour and a patch of art beside
// it, makes a region of the kinds' colours mostly of other colours than
// its own; labelled again in its own colour, it is found (rendered
// scenes, medium tier, seeds 26 and 35).
func TestFireballsAmidArtAreFound(t *testing.T) {
	expectTokensFound(t, []sceneRef{{synth.Medium, 26}, {synth.Medium, 35}}, "fireball on a disk", func(tk models.Token) bool {
		return tk.Kind == "fireball" && len(tk.Touches) > 0
	})
}

// TestStatCirclesAreNotGold: a disk's art carries stat circles, discs of
// a chit's size with a light bar across the middle; one of gold's
// colour, its bar lost in the blur at detection size and a sixth of its
// face, was taken for a gold chit. A gold chit is plain: the middle of
// its face is gold (rendered scenes; the true gold chits of hard seed
// 102, blurred and partly covered, are still found).
func TestStatCirclesAreNotGold(t *testing.T) {
	for _, c := range []struct {
		tier synth.Tier
		seed uint64
		at   []pt // where the stat circles are, cm on the table
	}{
		{synth.Medium, 36, []pt{{74.4, 13.3}, {-43.9, -21.2}}},
		{synth.Medium, 101, []pt{{-26.1, 4.1}}},
		{synth.Medium, 134, []pt{{12.4, -63.6}}},
		{synth.Easy, 132, []pt{{-11.9, 36.9}}},
		{synth.Hard, 30, []pt{{81.1, 67.3}}},
	} {
		_, got := detectScene(t, c.seed, c.tier)
		for _, at := range c.at {
			for _, tk := range got.Tokens {
				if math.Hypot(float64(tk.X)-at.X, float64(tk.Y)-at.Y) < 0.5 {
					t.Errorf("%s seed %d: a %s found on the stat circle at (%.1f, %.1f)", c.tier, c.seed, tk.Kind, at.X, at.Y)
				}
			}
		}
	}
	expectTokensFound(t, []sceneRef{{synth.Hard, 102}}, "gold chit", func(tk models.Token) bool { return tk.Kind == "gold" })
}

// TestPlainCoreShareWithoutAScale: without a scale (or a size) there is
// nothing to sample the middle of a chit by: nothing is held against it,
// and the sampling ends.
func TestPlainCoreShareWithoutAScale(t *testing.T) {
	k := TokenKind{Kind: "gold", Shape: "round", Length: 1.3, Width: 1.3, Colour: [3]float64{230, 191, 51}, Plain: true}
	tpl := newTokenTemplate(k, 0.1)
	f := tokenFit{centre: pt{10, 10}, jx: pt{10, 0}, jy: pt{0, 10}}
	img := greyImage(40, 40, func(x, y int) uint8 { return 90 })
	for _, pixel := range []float64{0, math.NaN()} {
		d := &Detector{plane: &workPlane{scale: 2, pixel: pixel}}
		if got := d.plainCoreShare(&tpl, f, img); got != 1 {
			t.Errorf("pixel %v: plainCoreShare %v, want 1", pixel, got)
		}
	}
	sizeless := newTokenTemplate(TokenKind{Kind: "dot", Shape: "round", Colour: k.Colour, Plain: true}, 0.1)
	d := &Detector{plane: &workPlane{scale: 2, pixel: 0.1}}
	if got := d.plainCoreShare(&sizeless, f, img); got != 1 {
		t.Errorf("a kind of no size: plainCoreShare %v, want 1", got)
	}
}

// TestKeepApart: of fits lying on the same spot, the better is kept
// (the same chit fitted twice, a chit of another kind across it); chits
// side by side, touching, are both kept.
func TestKeepApart(t *testing.T) {
	kinds := DefaultTokenCatalogue
	fit := func(name string, x, y, score float64) tokenFit {
		return tokenFit{kind: catalogueIndex(t, name), tableC: pt{x, y}, score: score}
	}
	cases := []struct {
		name  string
		found []tokenFit
		want  []string // the kinds kept, best first
	}{
		{"one chit fitted twice", []tokenFit{fit("damage", 0, 0, 0.7), fit("damage", 0.3, 0, 0.9)}, []string{"damage"}},
		// An arrow across a gold chit, their centres 0.9 cm apart: the
		// gold chit (1.3 cm) and the arrow (0.9 cm wide) overlap.
		{"an arrow fitted across a gold chit", []tokenFit{fit("gold", 0, 0, 0.9), fit("arrow", 0.9, 0, 0.6)}, []string{"gold"}},
		{"two damage markers side by side", []tokenFit{fit("damage", 0, 0, 0.8), fit("damage", 1.6, 0, 0.9)}, []string{"damage", "damage"}},
		{"a bolt beside a boulder", []tokenFit{fit("boulder", 0, 0, 0.8), fit("bolt", 1.45, 0, 0.7)}, []string{"boulder", "bolt"}},
		{"none", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range keepApart(tc.found, kinds) {
				got = append(got, kinds[f.kind].Kind)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("kept %v, want %v", got, tc.want)
			}
		})
	}
}

// TestArtIsNotTakenForAChitAcrossAnother: a patch of print beside a gold
// chit on a disk, fitted as an arrow lying across it, is not kept beside
// it (rendered scene, hard tier, seed 14); two art discs of a disk,
// fitted as a fireball and a gold chit across each other, make one
// phantom at most (easy tier, seed 116). The gold chit the arrow was
// fitted across, near (29.9, -67.7), is still found.
func TestArtIsNotTakenForAChitAcrossAnother(t *testing.T) {
	goldThere := func(tk models.Token) bool {
		return tk.Kind == "gold" && math.Hypot(float64(tk.X)-29.9, float64(tk.Y)+67.7) < 1
	}
	for _, sc := range []struct {
		sceneRef
		what       string
		stillFound func(models.Token) bool // the true chits that must still be found; nil: none asked
	}{{sceneRef{synth.Hard, 14}, "gold chit", goldThere}, {sceneRef{synth.Easy, 116}, "", nil}} {
		s, got := detectScene(t, sc.seed, sc.tier)
		if sc.stillFound != nil {
			wantTokensFound(t, sc.sceneRef, s.Truth.Tokens, got.Tokens, sc.what, sc.stillFound)
		}
		for i, a := range got.Tokens {
			for _, b := range got.Tokens[i+1:] {
				ka, kb := DefaultTokenCatalogue[catalogueIndex(t, a.Kind)], DefaultTokenCatalogue[catalogueIndex(t, b.Kind)]
				if d := math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)); d < (ka.Width+kb.Width)/2 {
					t.Errorf("%s seed %d: chits found across each other, %.2f cm apart: %s at (%.1f, %.1f), %s at (%.1f, %.1f)",
						sc.tier, sc.seed, d, a.Kind, a.X, a.Y, b.Kind, b.X, b.Y)
				}
			}
		}
	}
}
