package ui

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tableref/engine"
	"tableref/models"
)

// pinAnalyzer is a small ruleset for the tests: every contact between
// enemies is an engagement, the upper disk attacking.
type pinAnalyzer struct{}

func (pinAnalyzer) Analyze(l models.Layout, rules string) (engine.Report, error) {
	rep, err := engine.Analyze(l, nil)
	if err != nil {
		return rep, err
	}
	rep.Rules = rules
	t := rep.Table
	for _, c := range t.Contacts() {
		if models.Enemies(t.Disk(c.Top), t.Disk(c.Bottom)) {
			id := "E" + string(rune('1'+len(rep.Engagements)))
			rep.Engagements = append(rep.Engagements, engine.Engagement{ID: id, Attackers: []string{t.ID(c.Top)}, Defenders: []string{t.ID(c.Bottom)}})
			rep.Embattled = append(rep.Embattled, t.ID(c.Top), t.ID(c.Bottom))
		}
	}
	if len(rep.Engagements) > 0 {
		rep.Damage = map[string]int{rep.Engagements[0].Defenders[0]: 1}
	}
	return rep, nil
}

// skirmish: a red raider lies on a blue archer; a blue knight 20 cm away.
func skirmish() models.Layout {
	l := layoutOf(
		disk("archer", "blue", 20, 20, 2.5, 0),
		disk("raider", "red", 24, 21, 3, 1),
		disk("knight", "blue", 50, 20, 2.5, 0),
	)
	l.Players = []string{"blue", "red"}
	return l
}

func frameOf(t *testing.T, l models.Layout) Frame {
	t.Helper()
	img, withPixels := RenderLayout(l, FitView([]models.Layout{l}, 1000, 600))
	return Frame{Image: img, Layout: withPixels, Seq: 1, Time: time.Unix(0, 0)}
}

func newTestUI(t *testing.T) *UI {
	t.Helper()
	return newTestUIWith(t, Options{})
}

// newTestUIWith is newTestUI with opt's other fields (a corrections file,
// say); the analyzer and settle gate are the tests' own.
func newTestUIWith(t *testing.T, opt Options) *UI {
	t.Helper()
	a := test.NewApp()
	t.Cleanup(a.Quit)
	opt.Analyzer, opt.Settle = pinAnalyzer{}, SettleGate{Frames: 1}
	u, err := New(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	u.Window.Resize(fyne.NewSize(1400, 800))
	return u
}

// texts collects the text of every label under o.
func texts(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, obj := range test.LaidOutObjects(o) {
		if l, ok := obj.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

func near3(c color.Color, want color.NRGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(x uint32, y uint8) int { return int(math.Abs(float64(int(x>>8) - int(y)))) }
	return d(r, want.R) <= tol && d(g, want.G) <= tol && d(b, want.B) <= tol
}

// countOnCircle counts, over 360 angles, the pixels on a circle whose
// colour is within tol of want.
func countOnCircle(img image.Image, cu, cv, r float64, want color.NRGBA, tol int) int {
	n := 0
	for a := 0; a < 360; a++ {
		th := float64(a) * math.Pi / 180
		x, y := int(cu+r*math.Cos(th)), int(cv+r*math.Sin(th))
		if near3(img.At(x, y), want, tol) {
			n++
		}
	}
	return n
}

func TestOverlayDrawsOutlinesRingsAndArrows(t *testing.T) {
	f := frameOf(t, skirmish())
	rep, _ := pinAnalyzer{}.Analyze(f.Layout, "test")
	pal := NewPalette(f.Layout)
	img := DrawOverlay(f.Image, Overlay{Layout: f.Layout, Report: &rep, Selected: "knight",
		Bands: []models.Centimetres{15, 30}, Uncertainty: 0.2, Palette: pal})
	m, _ := FitAffine(f.Layout)
	byID := map[string]models.ImageCircle{}
	for _, d := range f.Layout.Disks {
		byID[d.ID] = *d.Pixel
	}

	t.Run("the outline of each disk is in its owner's colour", func(t *testing.T) {
		for _, id := range []string{"archer", "knight"} {
			c := byID[id]
			w := math.Max(2.5, math.Max(12, 600/60.0)/5)
			if n := countOnCircle(img, c.PX, c.PY, c.PR+w/2+1, pal.Of("blue"), 40); n < 100 {
				t.Errorf("%s: got %d of 360 outline samples in blue, want at least 100", id, n)
			}
		}
	})
	t.Run("the selected disk has a ring at 15 cm edge to edge", func(t *testing.T) {
		c := byID["knight"]
		r := c.PR + 15*m.Scale()
		if n := countOnCircle(img, c.PX, c.PY, r, bandColours[0], 60); n < 90 {
			t.Errorf("got %d of 360 samples on the 15 cm ring, want at least 90 (dashed)", n)
		}
		if n := countOnCircle(img, c.PX, c.PY, r+4, bandColours[0], 60); n > 60 {
			t.Errorf("4 px outside the ring: got %d samples in its colour, want few", n)
		}
	})
	t.Run("the engagement arrow runs from attacker to defender", func(t *testing.T) {
		from, to := edgePoints(byID["raider"], byID["archer"])
		mid := Pixel{(from.U + to.U) / 2, (from.V + to.V) / 2}
		if got := img.At(int(mid.U), int(mid.V)); !near3(got, engageColour, 50) {
			t.Errorf("arrow midpoint: got %v, want engagement yellow", got)
		}
		head := Pixel{to.U - (to.U-from.U)*0.05, to.V - (to.V-from.V)*0.05}
		if got := img.At(int(head.U), int(head.V)); !near3(got, engageColour, 50) {
			t.Errorf("arrow head: got %v, want engagement yellow", got)
		}
	})
	t.Run("without a selection there is no ring", func(t *testing.T) {
		plain := DrawOverlay(f.Image, Overlay{Layout: f.Layout, Report: &rep, Palette: pal})
		c := byID["knight"]
		if n := countOnCircle(plain, c.PX, c.PY, c.PR+15*m.Scale(), bandColours[0], 60); n > 10 {
			t.Errorf("got %d ring samples with nothing selected, want none", n)
		}
	})
}

func TestSelectingADiskShowsItsRingsAndDistances(t *testing.T) {
	u := newTestUI(t)
	f := frameOf(t, skirmish())
	u.Feed(f)
	u.Step()

	knight, _ := f.Layout.Disk("knight")
	pos := u.w.view.fromImage(Pixel{knight.Pixel.PX, knight.Pixel.PY})
	test.TapAt(u.w.view, pos)
	u.Step()

	if got := u.Selected(); got != "knight" {
		t.Fatalf("tap on the knight: got selection %q, want knight", got)
	}
	panel := texts(u.w.ranges)
	for _, want := range []string{"From knight: rings at 15 and 30 cm", "archer", "25.00 cm", "raider", "20.52 cm", "15–30 cm"} {
		if !strings.Contains(panel, want) {
			t.Errorf("ranges panel: got\n%s\nwant it to contain %q", panel, want)
		}
	}
	m, _ := FitAffine(f.Layout)
	img := u.Image()
	r := knight.Pixel.PR + 30*m.Scale()
	if n := countOnCircle(img, knight.Pixel.PX, knight.Pixel.PY, r, bandColours[1], 60); n < 60 {
		t.Errorf("live view: got %d samples on the 30 cm ring, want at least 60", n)
	}
}

func TestAnOverrideChangesTheEngagementList(t *testing.T) {
	u := newTestUI(t)
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	if got := texts(u.w.rulings); !strings.Contains(got, "E1: raider → archer") {
		t.Fatalf("rulings before the correction: got\n%s\nwant E1: raider → archer", got)
	}
	if err := u.CorrectDisk("raider", func(f *DiskFix) { f.Owner = ptr("blue") }); err != nil {
		t.Fatal(err)
	}
	u.Step()
	got := texts(u.w.rulings)
	if strings.Contains(got, "raider → archer") || !strings.Contains(got, "none") {
		t.Errorf("rulings after making the raider blue: got\n%s\nwant no engagement", got)
	}
	if c := u.Corrections(); len(c.Disks) != 1 || *c.Disks[0].Owner != "blue" {
		t.Errorf("corrections: got %+v, want the raider's owner blue", c.Disks)
	}
}

func TestDamageEntersTheTrackerOnlyOnConfirm(t *testing.T) {
	u := newTestUI(t)
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	if h := u.History(); len(h) != 0 {
		t.Fatalf("before confirmation: got %d entries, want none", len(h))
	}
	var confirm *widget.Button
	for _, o := range test.LaidOutObjects(u.w.damage) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Confirm" {
			confirm = b
		}
	}
	if confirm == nil {
		t.Fatalf("no Confirm button in the damage panel:\n%s", texts(u.w.damage))
	}
	test.Tap(confirm)
	h := u.History()
	if len(h) != 1 || h[0].Disk != "archer" || h[0].After.Damage != 1 {
		t.Errorf("after Confirm: got %+v, want archer damage 1", h)
	}
	if !strings.Contains(texts(u.w.damage), "archer: damage 1, wounds 0") {
		t.Errorf("damage panel: got\n%s\nwant archer: damage 1", texts(u.w.damage))
	}
}

func TestRulingsWaitForASettledTable(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	u, err := New(a, Options{Analyzer: pinAnalyzer{}, Settle: SettleGate{Frames: 3}})
	if err != nil {
		t.Fatal(err)
	}
	f := frameOf(t, skirmish())
	for i := 1; i <= 3; i++ {
		f.Seq = i
		u.Feed(f)
		u.Step()
		got := u.CurrentRuling()
		if (got != nil) != (i == 3) {
			t.Errorf("after frame %d: got ruling %v, want one only from frame 3", i, got != nil)
		}
	}
	if r := u.CurrentRuling(); r == nil || r.Frame.Seq != 3 {
		t.Errorf("the ruling names its frame: got %+v, want frame 3", r)
	}
}

func TestLayoutSourcePlaysEachLayoutAsFrames(t *testing.T) {
	l1, l2 := skirmish(), skirmish()
	l2.Disks[2].X = 60
	src := &LayoutSource{Layouts: []models.Layout{l1, l2}, Interval: 30 * time.Millisecond, FrameRate: 100}
	var got []Frame
	if err := src.Run(t.Context(), func(f Frame) { got = append(got, f) }); err != nil {
		t.Fatal(err)
	}
	if len(got) < 4 || got[0].Layout.Disks[2].X != 50 || got[len(got)-1].Layout.Disks[2].X != 60 {
		t.Fatalf("got %d frames, want several of each layout in order", len(got))
	}
	for i, f := range got {
		if f.Seq != i+1 || f.Layout.Disks[0].Pixel == nil {
			t.Errorf("frame %d: got seq %d and pixels %v, want seq %d with pixels", i, f.Seq, f.Layout.Disks[0].Pixel, i+1)
		}
	}
}

func BenchmarkOverlay(b *testing.B) {
	l := skirmish()
	img, withPixels := RenderLayout(l, FitView([]models.Layout{l}, 1280, 960))
	rep, _ := pinAnalyzer{}.Analyze(withPixels, "test")
	ov := Overlay{Layout: withPixels, Report: &rep, Selected: "knight", Bands: []models.Centimetres{15, 30}, Uncertainty: 0.2}
	for b.Loop() {
		DrawOverlay(img, ov)
	}
}
