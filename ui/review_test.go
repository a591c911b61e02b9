package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tableref/models"
)

// entries returns the entries under o, in layout order.
func entries(o fyne.CanvasObject) []*widget.Entry {
	var out []*widget.Entry
	for _, obj := range test.LaidOutObjects(o) {
		if e, ok := obj.(*widget.Entry); ok {
			out = append(out, e)
		}
	}
	return out
}

// jittered returns the frame with every disk moved by dx cm (and its
// pixel circle with it), as a live camera sees a still table.
func jittered(t *testing.T, l models.Layout, dx float64, seq int) Frame {
	t.Helper()
	j := l.Clone()
	for i := range j.Disks {
		j.Disks[i].X += models.Centimetres(dx)
	}
	f := frameOf(t, j)
	f.Seq = seq
	return f
}

// TestTypingInTheCorrectFormSurvivesCameraJitter: a live camera moves
// every disk by a millimetre or so from frame to frame; what the player
// is typing in the Correct form must not be wiped by the next frame.
func TestTypingInTheCorrectFormSurvivesCameraJitter(t *testing.T) {
	u := newTestUI(t)
	l := skirmish()
	u.Feed(jittered(t, l, 0, 1))
	u.Step()
	u.Select("knight")
	u.Step()
	es := entries(u.w.correct)
	if len(es) == 0 || es[0].Text != "knight" {
		t.Fatalf("the Correct form: got entries %v, want the name entry first", es)
	}
	test.Type(es[0], "Sir ")
	typed := es[0].Text
	for seq := 2; seq <= 4; seq++ {
		u.Feed(jittered(t, l, 0.1*float64(seq%2), seq))
		u.Step()
	}
	es = entries(u.w.correct)
	if len(es) == 0 || es[0].Text != typed {
		var got string
		if len(es) > 0 {
			got = es[0].Text
		}
		t.Errorf("the name entry after three jittering frames: got %q, want %q", got, typed)
	}
}

// TestTypingTheUncertaintySurvivesCameraJitter: the same for the
// uncertainty entry of the Ranges tab.
func TestTypingTheUncertaintySurvivesCameraJitter(t *testing.T) {
	u := newTestUI(t)
	l := skirmish()
	u.Feed(jittered(t, l, 0, 1))
	u.Step()
	u.Select("knight")
	u.Step()
	es := entries(u.w.ranges)
	if len(es) == 0 {
		t.Fatal("no uncertainty entry in the Ranges tab")
	}
	es[0].SetText("")
	test.Type(es[0], "0.35")
	u.Feed(jittered(t, l, 0.1, 2))
	u.Step()
	es = entries(u.w.ranges)
	if len(es) == 0 || es[0].Text != "0.35" {
		t.Errorf("the uncertainty entry after a jittering frame: got %v, want 0.35 still being typed", es)
	}
}

// TestAFixByIdIsNotTakenByAnotherFixsPosition: when the disk of one fix
// is out of sight (a hand over it), its fix must not take, by position,
// a disk that another fix finds by its id.
func TestAFixByIdIsNotTakenByAnotherFixsPosition(t *testing.T) {
	c := Corrections{Version: 1, Disks: []DiskFix{
		{ID: "d1", At: &[2]float64{10, 10}, Name: ptr("Troll")},
		{ID: "d2", At: &[2]float64{11, 10}, Name: ptr("Orc")},
	}}
	// d2 lies on d1 (pinning it); the hand covers d1.
	l := layoutOf(disk("d2", "red", 11, 10, 2.5, 1))
	got, next := c.Apply(l)
	if d, _ := got.Disk("d2"); d.Name != "Orc" {
		t.Errorf("d2 with d1 out of sight: got name %q, want Orc", d.Name)
	}
	// d1 comes back: each name on its own disk.
	l = layoutOf(disk("d1", "blue", 10, 10, 2.5, 0), disk("d2", "red", 11, 10, 2.5, 1))
	got, _ = next.Apply(l)
	for id, want := range map[string]string{"d1": "Troll", "d2": "Orc"} {
		if d, _ := got.Disk(id); d.Name != want {
			t.Errorf("%s when d1 is back: got name %q, want %q", id, d.Name, want)
		}
	}
}

// TestATokenFixByIdIsNotTakenByAnotherFixsPosition: the same for tokens.
func TestATokenFixByIdIsNotTakenByAnotherFixsPosition(t *testing.T) {
	c := Corrections{Version: 1, Tokens: []TokenFix{
		{ID: "t1", At: &[2]float64{10, 10}, Delete: true},
		{ID: "t2", At: &[2]float64{10.3, 10}, Kind: ptr("arrow")},
	}}
	l := models.Layout{Version: models.Version, Tokens: []models.Token{{ID: "t2", Kind: "bolt", X: 10.3, Y: 10, R: 1}}}
	got, _ := c.Apply(l)
	if len(got.Tokens) != 1 || got.Tokens[0].Kind != "arrow" {
		t.Errorf("t2 with t1 out of sight: got %+v, want t2 kept, an arrow", got.Tokens)
	}
}

// TestASaveErrorStaysOnTheStatusLineUntilASaveSucceeds: corrections that
// could not be written are said on the status line until they are; a
// later message (the uncertainty set) does not hide it, and a save that
// succeeds takes it away.
func TestASaveErrorStaysOnTheStatusLineUntilASaveSucceeds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	path := filepath.Join(dir, "game.corrections.json")
	u := newTestUIWith(t, Options{CorrectionsPath: path})
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	if err := u.CorrectDisk("knight", func(f *DiskFix) { f.Name = ptr("Sir Kay") }); err != nil {
		t.Fatal(err)
	}
	u.Step()
	if got := u.w.status.Text; !strings.Contains(got, "game.corrections.json") {
		t.Fatalf("after a failed save: status %q, want it to say the corrections are not saved", got)
	}
	u.setUncertainty("0.3")
	u.Step()
	if got := u.w.status.Text; !strings.Contains(got, "game.corrections.json") {
		t.Errorf("after setting the uncertainty: status %q, want the failed save still said", got)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := u.CorrectDisk("knight", func(f *DiskFix) { f.Name = ptr("Sir Kay") }); err != nil {
		t.Fatal(err)
	}
	u.Step()
	if got := u.w.status.Text; strings.Contains(got, "game.corrections.json") {
		t.Errorf("after a save that succeeded: status %q, want the failure gone", got)
	}
	if c, err := LoadCorrections(path); err != nil || len(c.Disks) != 1 {
		t.Errorf("the corrections file: got %+v (%v), want the knight's fix", c, err)
	}
}

// TestTheSourceStoppedStaysOnTheStatusLine: a camera unplugged is said
// until the end; setting the uncertainty does not hide it.
func TestTheSourceStoppedStaysOnTheStatusLine(t *testing.T) {
	u := newTestUI(t)
	u.play(context.Background(), stoppingSource{}) // as Run does, without its display loop
	u.Step()
	if got := u.w.status.Text; !strings.Contains(got, "The source stopped") {
		t.Fatalf("status after the source stopped: got %q", got)
	}
	u.setUncertainty("0.3")
	u.Step()
	if got := u.w.status.Text; !strings.Contains(got, "The source stopped") {
		t.Errorf("status after setting the uncertainty: got %q, want the stopped source still said", got)
	}
}

// stoppingSource sends one frame of the skirmish and stops, as an
// unplugged camera does.
type stoppingSource struct{}

func (stoppingSource) Run(ctx context.Context, emit func(Frame)) error {
	img, l := RenderLayout(skirmish(), FitView([]models.Layout{skirmish()}, 1000, 600))
	emit(Frame{Image: img, Layout: l, Seq: 1})
	return errors.New("camera:0: source stopped delivering frames")
}

// deadSource stops before its first frame: a camera that delivers none.
type deadSource struct{}

func (deadSource) Run(ctx context.Context, emit func(Frame)) error {
	return errors.New("camera:0: source stopped delivering frames (unplugged?)")
}

// TestACameraThatNeverDeliversSaysSo: the status line says the source
// stopped rather than waiting for a first frame for ever.
func TestACameraThatNeverDeliversSaysSo(t *testing.T) {
	u := newTestUI(t)
	u.play(context.Background(), deadSource{})
	u.Step()
	got := u.w.status.Text
	if strings.Contains(got, "Waiting") || !strings.Contains(got, "unplugged?") {
		t.Errorf("status: got %q, want it to say the source stopped", got)
	}
}

// buttonIn returns the button with the given text under o, nil if none.
func buttonIn(o fyne.CanvasObject, text string) *widget.Button {
	for _, obj := range test.LaidOutObjects(o) {
		if b, ok := obj.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	return nil
}

// TestCameraJitterNeitherRulesAgainNorReplacesTheButtons: a still table
// seen by a camera jitters by a millimetre; that is the same table, so
// no new ruling is made, and the Confirm button the player is pressing
// stays the same widget (Fyne taps a button only if it is still the one
// pressed when the mouse is released).
func TestCameraJitterNeitherRulesAgainNorReplacesTheButtons(t *testing.T) {
	u := newTestUI(t)
	l := skirmish()
	u.Feed(jittered(t, l, 0, 1))
	u.Step()
	confirm := buttonIn(u.w.damage, "Confirm")
	if confirm == nil {
		t.Fatalf("no Confirm button in the Damage tab:\n%s", texts(u.w.damage))
	}
	for seq := 2; seq <= 5; seq++ {
		u.Feed(jittered(t, l, 0.1*float64(seq%2), seq))
		u.Step()
	}
	if r := u.CurrentRuling(); r == nil || r.Seq != 1 {
		t.Errorf("after four jittering frames: got ruling %d, want ruling 1 still", r.Seq)
	}
	if got := buttonIn(u.w.damage, "Confirm"); got != confirm {
		t.Errorf("the Confirm button was replaced by the jittering frames")
	}
	// A real move is ruled again.
	u.Feed(jittered(t, l, 2, 6))
	u.Step()
	if r := u.CurrentRuling(); r == nil || r.Seq != 2 {
		t.Errorf("after a move of 2 cm: got ruling %d, want ruling 2", r.Seq)
	}
}

// partialCampaign records the first event of a turn end, then fails, as
// the ledger does when a write fails between two events.
type partialCampaign struct{ *memCampaign }

func (p partialCampaign) Record(pr TurnProposal) ([]CampaignEvent, error) {
	recs, err := p.memCampaign.Record(pr)
	if err != nil {
		return nil, err
	}
	return recs, errors.New("income: database is locked (1 events of the turn end recorded before)")
}

// TestAPartlyRecordedTurnEndIsNotCalledNotRecorded: when some events went
// in before an error, the tab says so, not "Not recorded".
func TestAPartlyRecordedTurnEndIsNotCalledNotRecorded(t *testing.T) {
	m := newMemCampaign()
	u := newCampaignUI(t, partialCampaign{m})
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	tapButton(t, u, "End turn…")
	tapButton(t, u, "Confirm and record")
	got := texts(u.camp.box)
	if strings.Contains(got, "Not recorded") {
		t.Errorf("one event recorded, then an error: the tab says\n%s\nwant no \"Not recorded\"", got)
	}
	wantTexts(t, got, "Only partly recorded: 1 event(s) recorded (#1 · turn 1 · income", "database is locked")
}

// racyCampaign: another program records an event just before the undo.
type racyCampaign struct{ *memCampaign }

func (r racyCampaign) Undo() (CampaignEvent, error) {
	m := r.memCampaign
	m.events = append(m.events, memEvent{CampaignEvent: CampaignEvent{Seq: len(m.events) + 1, Turn: 2, Kind: "transfer"}})
	return m.Undo()
}

// TestAnUndoThatTookAnotherEventSaysSo: the event undone is not the one
// the player confirmed; the tab says which was undone.
func TestAnUndoThatTookAnotherEventSaysSo(t *testing.T) {
	m := newMemCampaign()
	u := newCampaignUI(t, racyCampaign{m})
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	tapButton(t, u, "End turn…")
	tapButton(t, u, "Confirm and record")
	tapButton(t, u, "Undo last event…")
	tapButton(t, u, "Undo it")
	wantTexts(t, texts(u.camp.box), "#2 · turn 2 · transfer (undone), and not #1 as asked")
}

// TestEscapeTakesBackAddMissedDisk: "Add missed disk" pressed by mistake
// is taken back with Escape; the next click then selects, adding nothing.
func TestEscapeTakesBackAddMissedDisk(t *testing.T) {
	u := newTestUI(t)
	f := frameOf(t, skirmish())
	u.Feed(f)
	u.Step()
	u.startAdd()
	if !strings.Contains(u.w.status.Text, "Esc") {
		t.Errorf("status in add mode: got %q, want it to say Esc cancels", u.w.status.Text)
	}
	u.Window.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	knight, _ := f.Layout.Disk("knight")
	test.TapAt(u.w.view, u.w.view.fromImage(Pixel{knight.Pixel.PX, knight.Pixel.PY}))
	u.Step()
	if c := u.Corrections(); len(c.Added) != 0 {
		t.Errorf("a click after Escape added %+v, want nothing", c.Added)
	}
	if got := u.Selected(); got != "knight" {
		t.Errorf("a click after Escape: got selection %q, want knight", got)
	}
	u.Window.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if got := u.Selected(); got != "" {
		t.Errorf("Escape with a disk selected: got selection %q, want none", got)
	}
}

// TestRangesInPixelsDoNotSayCentimetres: without a calibration the
// detector's layout is in pixels ("units": "px"); the Ranges tab must not
// call those distances centimetres nor place them among cm bands, and the
// overlay draws no cm rings.
func TestRangesInPixelsDoNotSayCentimetres(t *testing.T) {
	u := newTestUI(t)
	l := skirmish()
	f := frameOf(t, l)
	f.Layout.Units = models.UnitsPixels
	u.Feed(f)
	u.Step()
	u.Select("knight")
	u.Step()
	got := texts(u.w.ranges)
	for _, bad := range []string{"20.52 cm", "15–30 cm", "rings at"} {
		if strings.Contains(got, bad) {
			t.Errorf("Ranges tab in pixels: got\n%s\nwant no %q", got, bad)
		}
	}
	wantTexts(t, got, "20.52 px", "No calibration")
	knight, _ := f.Layout.Disk("knight")
	m, _ := FitAffine(f.Layout)
	r := knight.Pixel.PR + 30*m.Scale()
	if n := countOnCircle(u.Image(), knight.Pixel.PX, knight.Pixel.PY, r, bandColours[1], 60); n > 10 {
		t.Errorf("live view in pixels: got %d samples of a 30 cm ring, want none", n)
	}
}
