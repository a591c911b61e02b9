package track

import (
	"errors"
	"image"
	"slices"
	"strings"
	"testing"

	"tableref/models"
)

// pxDisk is a detection without a calibration: its table place is its
// pixel place (x, y, r equal px, py, pr).
func pxDisk(id string, px, py, pr float64) models.Disk {
	return models.Disk{ID: id, Kind: models.KindCreature, X: models.Centimetres(px), Y: models.Centimetres(py), R: models.Centimetres(pr),
		Pixel: &models.ImageCircle{PX: px, PY: py, PR: pr}}
}

// scene is a frame and the detector's reading of it, from disk centres
// in pixels (radius 20).
func scene(at ...[2]float64) (*image.RGBA, models.Layout) {
	var sq []image.Rectangle
	l := models.Layout{Version: 1}
	for i, p := range at {
		x, y := int(p[0]), int(p[1])
		sq = append(sq, image.Rect(x-20, y-20, x+20, y+20))
		l.Disks = append(l.Disks, pxDisk(string(rune('p'+i)), p[0], p[1], 20))
	}
	return flat(sq...), l
}

// play steps a pipeline through the given stretches of frames, each a
// scene shown for n frames, and returns its rulings.
func play(t *testing.T, p *Pipeline, det *fixedDetector, parts ...struct {
	n  int
	at [][2]float64
}) []Ruling {
	t.Helper()
	var out []Ruling
	f := 0
	for _, part := range parts {
		img, l := scene(part.at...)
		det.layout = l
		for range part.n {
			st, err := p.Step(f, img)
			if err != nil {
				t.Fatal(err)
			}
			if st.Ruling != nil {
				out = append(out, *st.Ruling)
			}
			f++
		}
	}
	return out
}

type stretch = struct {
	n  int
	at [][2]float64
}

func TestAMoveMadeAsTheCameraIsKnockedIsRuled(t *testing.T) {
	// Four disks; in one motion the camera is knocked (every disk shifts
	// 6, 4 px in the image) and the disk at (300, 100) is flipped twice
	// to the right. The quiet read notices the bump; the ruling must
	// still come, with the moved disk under its id.
	before := [][2]float64{{100, 100}, {300, 100}, {400, 200}, {150, 220}}
	after := [][2]float64{{106, 104}, {386, 104}, {406, 204}, {156, 224}}
	det := &fixedDetector{}
	p := NewPipeline(det, PipelineOptions{})
	rulings := play(t, p, det, stretch{40, before}, stretch{40, after})
	if len(rulings) != 2 {
		t.Fatalf("got %d rulings, want one before and one after the move", len(rulings))
	}
	id := idAt(rulings[0].Layout, 300, 100)
	if got := idAt(rulings[1].Layout, 380, 100); got != id || id == "" {
		t.Errorf("after the bump and the move: got %q at (380, 100) (re-anchored), want %q", got, id)
	}
	if !slices.ContainsFunc(rulings[1].Events, func(e Event) bool { return e.Kind == "moved" && e.ID == id }) {
		t.Errorf("got events %+v, want %s moved", rulings[1].Events, id)
	}
}

func TestQuestionsOfAQuietReadReachTheRuling(t *testing.T) {
	// Two look-alikes cross in one motion (a to the lower, b to the upper
	// middle place): the quiet read sees the crossing and asks; the
	// settled read, which sees nothing move since, must still carry the
	// question, as the ruling is all a user of the command sees.
	before := [][2]float64{{100, 100}, {200, 100}, {400, 200}}
	after := [][2]float64{{150, 130}, {150, 70}, {400, 200}}
	det := &fixedDetector{}
	p := NewPipeline(det, PipelineOptions{})
	rulings := play(t, p, det, stretch{40, before}, stretch{40, after})
	if len(rulings) != 2 {
		t.Fatalf("got %d rulings, want 2", len(rulings))
	}
	if !slices.ContainsFunc(rulings[1].Questions, func(q Question) bool { return q.Kind == "swap" }) {
		t.Errorf("got questions %+v in the ruling, want the swap question", rulings[1].Questions)
	}
}

func TestTheFirstRulingNamedByARosterNamesItsDisksEverywhere(t *testing.T) {
	// The quiet read sees three disks, the settled read two (the third
	// missed): the first ruling tells of it unseen and asks whether it
	// was taken off. Named by a roster at that ruling (as track --names
	// does), its events and questions must use the roster's ids.
	three := [][2]float64{{100, 100}, {300, 100}, {400, 200}}
	det := &fixedDetector{}
	p := NewPipeline(det, PipelineOptions{})
	img, full := scene(three...)
	var ru *Ruling
	for n := 0; n < 30 && ru == nil; n++ {
		det.layout = full
		if n >= 10 {
			det.layout = models.Layout{Version: 1, Disks: full.Disks[:2]}
		}
		st, err := p.Step(n, img)
		if err != nil {
			t.Fatal(err)
		}
		ru = st.Ruling
	}
	if ru == nil {
		t.Fatal("no ruling")
	}
	named := models.Layout{Version: 1}
	for i, d := range full.Disks {
		d.ID, d.Name = []string{"a", "b", "c"}[i], []string{"Archer", "Bear", "Cat"}[i]
		named.Disks = append(named.Disks, d)
	}
	renamed, err := p.Tracker().Adopt(named)
	if err != nil {
		t.Fatal(err)
	}
	got := p.Tracker().RenameRuling(*ru, renamed)
	ids := got.Layout.DiskIndex()
	if len(got.Events) == 0 || len(got.Questions) == 0 {
		t.Fatalf("got events %+v and questions %+v, want c unseen and asked about", got.Events, got.Questions)
	}
	for _, e := range got.Events {
		if _, ok := ids[e.ID]; !ok || e.ID != "c" || e.Name != "Cat" || !strings.Contains(e.Text, "c") || strings.Contains(e.Text, "n3") {
			t.Errorf("got event %+v, want it about c (Cat), a disk of the layout", e)
		}
	}
	for _, q := range got.Questions {
		if !slices.Equal(q.Disks, []string{"c"}) || strings.Contains(q.Text, "n3") {
			t.Errorf("got question %+v, want it about c", q)
		}
	}
	if ru.Events[0].ID == "c" {
		t.Errorf("RenameRuling changed the ruling it was given")
	}
}

// flakyDetector is a fixedDetector whose reads fail at the given counts
// (1 is the first read).
type flakyDetector struct {
	fixedDetector
	reads int
	fail  map[int]bool
}

func (d *flakyDetector) Detect(img image.Image) (models.Layout, error) {
	d.reads++
	if d.fail[d.reads] {
		return models.Layout{}, errors.New("a damaged frame")
	}
	return d.fixedDetector.Detect(img)
}

func TestAFailedReadAtTheSettlingFrameIsTriedAgain(t *testing.T) {
	// The table settles after a move; the detector fails on the frame
	// that would rule (a damaged frame, skipped by the command). The
	// next frame must rule instead: the rest is not lost.
	before := [][2]float64{{100, 100}, {300, 100}, {400, 200}}
	after := [][2]float64{{100, 100}, {380, 100}, {400, 200}}
	det := &flakyDetector{fail: map[int]bool{4: true}} // reads: quiet, ruling, quiet, ruling
	p := NewPipeline(det, PipelineOptions{})
	var rulings []int
	failed := -1
	for n := range 90 {
		at := before
		if n >= 40 {
			at = after
		}
		img, l := scene(at...)
		det.layout = l
		st, err := p.Step(n, img)
		if err != nil {
			failed = n
			continue
		}
		if st.Ruling != nil {
			rulings = append(rulings, n)
		}
	}
	if failed < 0 || len(rulings) != 2 || rulings[1] != failed+1 {
		t.Errorf("the read failed at frame %d; got rulings at frames %v, want the second at the frame after", failed, rulings)
	}
}

func TestAKnockedCameraAloneIsNoNewRulingThoughATokenIsReadAnew(t *testing.T) {
	// Only the camera moves (every disk shifts 6, 4 px); in the new view
	// the detector finds a token it had missed. No disk moved: no new
	// ruling, as the token count alone is the detector's noise.
	before := [][2]float64{{100, 100}, {300, 100}, {400, 200}, {150, 220}}
	after := [][2]float64{{106, 104}, {306, 104}, {406, 204}, {156, 224}}
	det := &fixedDetector{}
	p := NewPipeline(det, PipelineOptions{})
	var rulings []Ruling
	for n := range 80 {
		at := before
		if n >= 40 {
			at = after
		}
		img, l := scene(at...)
		if n >= 40 {
			l.Tokens = []models.Token{{ID: "t1", Kind: "arrow", X: 250, Y: 250, R: 5, Pixel: &models.ImageCircle{PX: 250, PY: 250, PR: 5}}}
		}
		det.layout = l
		st, err := p.Step(n, img)
		if err != nil {
			t.Fatal(err)
		}
		if st.Ruling != nil {
			rulings = append(rulings, *st.Ruling)
		}
	}
	if len(rulings) != 1 {
		t.Errorf("got %d rulings, want the first one only", len(rulings))
	}
}
