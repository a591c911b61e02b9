package vision

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"tableref/models"
	"tableref/vision/synth"
)

// lightFrame draws a 1920x1080 table of colour table (r, g, b), with a
// grain of a few levels, a dozen disks of other colours and two of the
// table's colour but darker and lighter, all under light gain (frame
// fractions to a factor on sRGB).
func lightFrame(table [3]float64, gain func(fx, fy float64) float64) bgrImage {
	const w, h = 1920, 1080
	rng := rand.New(rand.NewPCG(7, 11))
	type disc struct {
		x, y, r float64
		c       [3]float64
	}
	discs := []disc{
		{300, 300, 110, [3]float64{200, 40, 40}},
		{700, 250, 90, [3]float64{40, 60, 200}},
		{1200, 700, 130, [3]float64{230, 230, 220}},
		{1600, 300, 100, [3]float64{30, 30, 30}},
		{900, 800, 100, [3]float64{60, 160, 70}},
		{400, 800, 120, [3]float64{240, 200, 50}},
		{1500, 900, 90, [3]float64{150, 60, 150}},
		{1000, 450, 80, [3]float64{90, 200, 220}},
		// the table's colour, but darker and lighter: not its light
		{1750, 600, 110, [3]float64{table[0] * 0.5, table[1] * 0.5, table[2] * 0.5}},
		{150, 1000, 100, [3]float64{min(255, table[0]*1.4), min(255, table[1]*1.4), min(255, table[2]*1.4)}},
	}
	pix := make([]uint8, w*h*3)
	for y := range h {
		for x := range w {
			c := table
			grain := 1 + 0.06*math.Sin(float64(y)/7+3*math.Sin(float64(x)/90)) + 0.02*rng.NormFloat64()
			for _, d := range discs {
				if math.Hypot(float64(x)-d.x, float64(y)-d.y) < d.r {
					c, grain = d.c, 1+0.02*rng.NormFloat64()
				}
			}
			g := gain(float64(x)/w, float64(y)/h) * grain
			i := (y*w + x) * 3
			for k := range 3 {
				pix[i+2-k] = uint8(min(255, max(0, math.Round(c[k]*g))))
			}
		}
	}
	return bgrImage{pix: pix, w: w, h: h}
}

// The light read from the table follows the light the frame was drawn
// under, relative to its typical level, within a level of the colour
// table: disks of every colour, and of the table's colour but another
// lightness, are left out. (Where a disk hides the table on the steep side
// of a lamp's bright patch, the light there is read from the cells around
// it, 5 % off.)
func TestReadLight(t *testing.T) {
	lights := []struct {
		name string
		gain func(fx, fy float64) float64
	}{
		{"even light", func(fx, fy float64) float64 { return 1 }},
		{"a lamp to the left", func(fx, fy float64) float64 { return 1.3 - 0.6*fx }},
		{"a lamp's bright patch and a lens's dark corners", func(fx, fy float64) float64 {
			spot := 0.4 * math.Exp(-((fx-0.7)*(fx-0.7)+(fy-0.3)*(fy-0.3))/0.09)
			r2 := (fx-0.5)*(fx-0.5) + (fy-0.5)*(fy-0.5)
			return (1 + spot) * (1 - 0.6*r2)
		}},
	}
	tables := []struct {
		name string
		rgb  [3]float64
	}{
		{"wood", [3]float64{150, 105, 65}},
		{"green baize", [3]float64{50, 110, 60}},
		{"grey tiles", [3]float64{130, 128, 125}},
	}
	for _, lt := range lights {
		for _, tb := range tables {
			t.Run(fmt.Sprintf("%s on %s", lt.name, tb.name), func(t *testing.T) {
				frame := lightFrame(tb.rgb, lt.gain)
				f := readLight(frame)
				if len(f.gain) == 0 {
					t.Fatal("no light read from a frame that is mostly table")
				}
				var want, got []float64
				for fy := 0.05; fy < 1; fy += 0.1 {
					for fx := 0.05; fx < 1; fx += 0.1 {
						want = append(want, lt.gain(fx, fy))
						got = append(got, f.at(fx*float64(frame.w), fy*float64(frame.h)))
					}
				}
				// Both relative to their typical level.
				mw, mg := median(want), median(got)
				worst, at := 0.0, 0
				for i := range want {
					if e := math.Abs(math.Log(got[i] / mg * mw / want[i])); e > worst {
						worst, at = e, i
					}
				}
				// Within a level of the colour table (6 %).
				if worst > math.Log(lightStep) {
					t.Errorf("light off by %.1f %% at point %d: read %.3f, want %.3f (relative)",
						100*(math.Exp(worst)-1), at, got[at]/mg, want[at]/mw)
				}
				// The typical level is the table's median: about 1.
				if math.Abs(mg-1) > 0.05 {
					t.Errorf("typical light read as %.3f, want about 1", mg)
				}
			})
		}
	}
}

// A frame where no colour covers enough of it to be a table (a mosaic of
// colours) is read as even light, and the zero field is 1 everywhere.
func TestReadLightWithoutATable(t *testing.T) {
	const w, h, tile = 960, 540, 20
	rng := rand.New(rand.NewPCG(3, 5))
	pix := make([]uint8, w*h*3)
	cols := make([][3]uint8, (w/tile)*(h/tile))
	for i := range cols {
		cols[i] = [3]uint8{uint8(30 + rng.IntN(220)), uint8(30 + rng.IntN(220)), uint8(30 + rng.IntN(220))}
	}
	for y := range h {
		for x := range w {
			c := cols[(y/tile)*(w/tile)+x/tile]
			copy(pix[(y*w+x)*3:], c[:])
		}
	}
	f := readLight(bgrImage{pix: pix, w: w, h: h})
	if len(f.gain) != 0 {
		t.Errorf("a mosaic was read as a table under light %v", f.gain)
	}
	if g := f.at(100, 100); g != 1 {
		t.Errorf("the zero field's light is %v, want 1", g)
	}
}

// Under a dim light, a chit of a colour is matched by the table's level
// for that light, not by the typical light's, and a grey chit as under
// the typical light; light levels are clamped to the table's range.
func TestColourTableUnderLight(t *testing.T) {
	tab, err := newColourTable(DefaultTokenCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	bitOf := func(name string) uint64 { return 1 << catalogueIndex(t, name) }
	q := func(v float64) uint8 { return uint8(max(0, min(255, math.Round(v)))) }
	cases := []struct {
		kind  string
		seen  float64 // the chit's brightness, relative to its colour
		light float64 // the light there, relative to the typical
		match bool
	}{
		{"fireball", 0.5, 1, false},
		{"fireball", 0.5, 0.6, true},
		{"gold", 0.45, 0.55, true},
		{"gold", 0.45, 1, false},
		{"damage", 0.9, 1, true},
		{"damage", 0.9, 0.5, false}, // a dim corner's red is darker than this
		// Grey kinds are not matched by the light (see colourTable.level).
		{"boulder", 0.55, 0.65, false},
		{"boulder", 0.9, 0.65, true},
	}
	for _, tc := range cases {
		k := DefaultTokenCatalogue[catalogueIndex(t, tc.kind)]
		l, a, b := rgbToLab([3]float64{tc.seen * k.Colour[0], tc.seen * k.Colour[1], tc.seen * k.Colour[2]})
		got := tab.kindsUnder(lightLevel(tc.light), q(l), q(a), q(b))&bitOf(tc.kind) != 0
		if got != tc.match {
			t.Errorf("%s at %.2f of its colour under light %.2f: matched %v, want %v", tc.kind, tc.seen, tc.light, got, tc.match)
		}
	}
	levels := []struct {
		g    float64
		want int
	}{
		{1, lightLevelOne}, {0, lightLevelOne}, {math.NaN(), lightLevelOne},
		{lightStep, lightLevelOne + 1}, {0.01, 0}, {100, lightLevels - 1},
	}
	for _, c := range levels {
		if got := lightLevel(c.g); got != c.want {
			t.Errorf("lightLevel(%v) = %d, want %d", c.g, got, c.want)
		}
	}
}

// Chits on the table in a dim corner of a rendered scene (hard seed 37:
// the lamp's light there is two thirds of the table's typical light) are
// found: at that light a gold coin and a fireball are darker than their
// colours' rays reach under the typical light.
func TestChitsInADimCornerAreFound(t *testing.T) {
	expectTokensFound(t, []sceneRef{{synth.Hard, 37}}, "gold or fireball on the table", func(tk models.Token) bool {
		return (tk.Kind == "gold" || tk.Kind == "fireball") && len(tk.Touches) == 0
	})
}
