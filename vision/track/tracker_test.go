package track

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tableref/models"
)

// piece is a disk of a hand-made table: identity and where it lies.
type piece struct {
	id   string
	x, y float64
	r    float64
	move int
}

// reading returns what a detector might report: the pieces in a shuffled
// order under ids of its own, centres off by up to noise cm, pixels equal
// to centimetres times 10.
func reading(ps []piece, rng *rand.Rand, noise float64) models.Layout {
	l := models.Layout{Version: 1}
	for _, k := range rng.Perm(len(ps)) {
		p := ps[k]
		x, y := p.x+noise*(2*rng.Float64()-1), p.y+noise*(2*rng.Float64()-1)
		l.Disks = append(l.Disks, models.Disk{ID: fmt.Sprintf("d%d", len(l.Disks)+1), Kind: models.KindCreature,
			X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(p.r),
			Pixel: &models.ImageCircle{PX: 10 * x, PY: 10 * y, PR: 10 * p.r}})
	}
	return l
}

// roster is the layout a player names the pieces with.
func roster(ps []piece) models.Layout {
	l := models.Layout{Version: 1}
	for _, p := range ps {
		l.Disks = append(l.Disks, models.Disk{ID: p.id, Name: "name of " + p.id, X: models.Centimetres(p.x), Y: models.Centimetres(p.y),
			R: models.Centimetres(p.r), Stats: models.Stats{"movement": p.move}})
	}
	return l
}

// idAt returns the id the tracked layout gives the disk at (x, y).
func idAt(l models.Layout, x, y float64) string {
	for _, d := range l.Disks {
		if math.Hypot(float64(d.X)-x, float64(d.Y)-y) < 0.5*float64(d.R) {
			return d.ID
		}
	}
	return ""
}

func start(t *testing.T, ps []piece, opt Options) *Tracker {
	t.Helper()
	tr := NewTracker(opt)
	rng := rand.New(rand.NewPCG(1, 2))
	tr.Observe(Observation{Layout: reading(ps, rng, 0.05), Settled: true})
	if _, err := tr.Adopt(roster(ps)); err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestIdentitiesSurviveFlipsAndNoise(t *testing.T) {
	// Six disks of two sizes, moved by flips of one diameter in random
	// directions (Diskwars rulebook, "Action : se déplacer": a disk is
	// flipped as many times as its movement allows), with an intermediate
	// reading between flips and a settled one after each move.
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 30, 10, 2.54, 3}, {"c", 50, 10, 2.54, 2}, {"d", 10, 40, 2.225, 4}, {"e", 30, 40, 2.225, 4}, {"f", 50, 40, 3.175, 2}}
	tr := start(t, ps, Options{})
	rng := rand.New(rand.NewPCG(3, 4))
	for move := range 300 {
		k := rng.IntN(len(ps))
		p := &ps[k]
		flips := 1 + rng.IntN(p.move)
		a := 2 * math.Pi * rng.Float64()
		for range flips {
			nx, ny := p.x+2*p.r*math.Cos(a), p.y+2*p.r*math.Sin(a)
			if nx < 0 || ny < 0 || nx > 70 || ny > 60 || crowded(ps, k, nx, ny) {
				break
			}
			p.x, p.y = nx, ny
			tr.Observe(Observation{Layout: reading(ps, rng, 0.05)})
		}
		up := tr.Observe(Observation{Layout: reading(ps, rng, 0.05), Settled: true})
		for _, q := range up.Questions {
			if q.Kind == "swap" {
				continue // asked, not guessed: the test below checks asking
			}
			t.Errorf("move %d: unexpected question %+v", move, q)
			t.Logf("events %+v", up.Events)
			for _, d := range up.Layout.Disks {
				t.Logf("%s at (%.2f, %.2f) %s", d.ID, d.X, d.Y, d.Extra["tracking"])
			}
			for _, p := range ps {
				t.Logf("truth %s at (%.2f, %.2f)", p.id, p.x, p.y)
			}
			t.FailNow()
		}
		for _, p := range ps {
			if got := idAt(up.Layout, p.x, p.y); got != p.id {
				t.Fatalf("move %d: disk %s at (%.1f, %.1f): got id %q, want %q", move, p.id, p.x, p.y, got, p.id)
			}
		}
	}
}

// crowded reports whether a disk at (x, y) would overlap a piece other
// than k.
func crowded(ps []piece, k int, x, y float64) bool {
	for i, o := range ps {
		if i != k && math.Hypot(o.x-x, o.y-y) < o.r+ps[k].r+0.5 {
			return true
		}
	}
	return false
}

func TestTwoLookalikesThatCrossAreAskedAbout(t *testing.T) {
	ps := []piece{{"a", 0, 0, 2.54, 3}, {"b", 12, 0, 2.54, 3}, {"c", 40, 40, 2.54, 3}}
	tr := start(t, ps, Options{})
	ps[0].x, ps[0].y = 6, 3
	ps[1].x, ps[1].y = 6, -3
	up := tr.Observe(Observation{Layout: reading(ps, rand.New(rand.NewPCG(5, 5)), 0), Settled: true})
	i := slices.IndexFunc(up.Questions, func(q Question) bool { return q.Kind == "swap" })
	if i < 0 {
		t.Fatalf("got questions %+v, want a swap question about a and b", up.Questions)
	}
	q := up.Questions[i]
	if got := slices.Sorted(slices.Values(q.Disks)); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("got a question about %v, want [a b]", got)
	}
	before := idAt(up.Layout, 6, 3)
	if err := tr.Answer(q, true, ""); err != nil {
		t.Fatal(err)
	}
	d, _ := tr.Disk(before)
	if math.Hypot(float64(d.X)-6, float64(d.Y)-3) < 1 {
		t.Errorf("after the swap, %s is still at (6, 3)", before)
	}
	if err := tr.Answer(q, true, ""); err == nil {
		t.Errorf("answering a closed question: got no error")
	}
}

func TestAStillDiskIsNotAskedAbout(t *testing.T) {
	ps := []piece{{"a", 0, 0, 2.54, 3}, {"b", 12, 0, 2.54, 3}}
	tr := start(t, ps, Options{})
	ps[0].x = 5 // a moves toward b, b stays
	up := tr.Observe(Observation{Layout: reading(ps, rand.New(rand.NewPCG(6, 6)), 0.05), Settled: true})
	if len(up.Questions) != 0 {
		t.Errorf("got questions %+v, want none", up.Questions)
	}
	if got := idAt(up.Layout, 5, 0); got != "a" {
		t.Errorf("got %q at (5, 0), want a", got)
	}
}

func TestAMoveBeyondTheDisksFlipsIsNotTakenForIt(t *testing.T) {
	// a has movement 2: at most two diameters (10.2 cm) plus slack.
	ps := []piece{{"a", 0, 0, 2.54, 2}, {"b", 50, 50, 2.225, 3}}
	tr := start(t, ps, Options{})
	ps[0].x = 20
	rng := rand.New(rand.NewPCG(7, 7))
	tr.Observe(Observation{Layout: reading(ps, rng, 0), Settled: true})
	// The second look confirms the new disk: it enters the table, and the
	// question about it comes with it.
	up := tr.Observe(Observation{Layout: reading(ps, rng, 0), Settled: true})
	got := idAt(up.Layout, 20, 0)
	if got == "a" || got == "" {
		t.Errorf("the disk at (20, 0): got id %q, want a new id", got)
	}
	if !slices.ContainsFunc(up.Questions, func(q Question) bool {
		return q.Kind == "identify" && q.Disks[0] == got && slices.Contains(q.Disks, "a")
	}) {
		t.Errorf("got questions %+v, want one asking whether the new disk %s is a", up.Questions, got)
	}
}

func TestAMissedDiskKeepsItsIdentity(t *testing.T) {
	ps := []piece{{"a", 0, 0, 2.54, 3}, {"b", 20, 0, 2.54, 3}, {"c", 40, 0, 2.54, 3}}
	tr := start(t, ps, Options{})
	rng := rand.New(rand.NewPCG(8, 8))
	up := tr.Observe(Observation{Layout: reading(ps[:2], rng, 0.05), Settled: true})
	d, ok := up.Layout.Disk("c")
	if !ok || seenFlag(d) {
		t.Fatalf("c missed once: got %+v (found %v), want it kept as unseen", d, ok)
	}
	up = tr.Observe(Observation{Layout: reading(ps, rng, 0.05), Settled: true})
	if got := idAt(up.Layout, 40, 0); got != "c" {
		t.Errorf("c seen again: got %q, want c", got)
	}
	if qs := tr.Questions(); len(qs) != 0 {
		t.Errorf("c seen again: got open questions %+v, want none", qs)
	}
}

func seenFlag(d models.Disk) bool {
	raw, ok := d.Extra["tracking"]
	return !ok || string(raw) != `{"seen":false}`
}

func TestAKilledDiskDoesNotComeBack(t *testing.T) {
	ps := []piece{{"a", 0, 0, 2.54, 3}, {"b", 20, 0, 2.54, 3}}
	tr := start(t, ps, Options{})
	if !tr.Kill("a") {
		t.Fatal("Kill(a): not found")
	}
	up := tr.Observe(Observation{Layout: reading(ps, rand.New(rand.NewPCG(9, 9)), 0), Settled: true})
	if got := idAt(up.Layout, 0, 0); got == "a" {
		t.Errorf("a disk where killed a lay: got id a, want a new id")
	}
}

func TestADiskTakenOffIsAskedAboutThenForgotten(t *testing.T) {
	ps := []piece{{"a", 0, 0, 2.54, 3}, {"b", 20, 0, 2.54, 3}, {"c", 40, 0, 2.54, 3}}
	tr := start(t, ps, Options{MissingRulings: 2})
	rng := rand.New(rand.NewPCG(10, 10))
	up := tr.Observe(Observation{Layout: reading(ps[1:], rng, 0), Settled: true})
	if !slices.ContainsFunc(up.Questions, func(q Question) bool { return q.Kind == "gone" && q.Disks[0] == "a" }) {
		t.Errorf("got questions %+v, want one asking whether a was taken off", up.Questions)
	}
	up = tr.Observe(Observation{Layout: reading(ps[1:], rng, 0), Settled: true})
	if _, ok := up.Layout.Disk("a"); ok {
		t.Errorf("a unseen twice: still on the table")
	}
	if !slices.ContainsFunc(up.Events, func(e Event) bool { return e.Kind == "removed" && e.ID == "a" }) {
		t.Errorf("got events %+v, want a removed", up.Events)
	}
}

func TestDisksUnderTheHandKeepTheirState(t *testing.T) {
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 40, 10, 2.54, 3}}
	tr := start(t, ps, Options{})
	// A hand over a (pixels 0-200 across, 0-200 down); a detection of
	// something under it (a finger's round tip) is ignored.
	hand := &Mask{Cell: 10, W: 60, H: 60, Cells: make([]bool, 3600)}
	for j := range 20 {
		for i := range 20 {
			hand.Cells[j*60+i] = true
		}
	}
	l := reading(ps[1:], rand.New(rand.NewPCG(11, 11)), 0)
	l.Disks = append(l.Disks, models.Disk{ID: "x", X: 15, Y: 15, R: 2.54, Pixel: &models.ImageCircle{PX: 150, PY: 150, PR: 25.4}})
	for range 5 {
		up := tr.Observe(Observation{Layout: l, Hand: hand, Settled: true})
		if got := idAt(up.Layout, 10, 10); got != "a" {
			t.Fatalf("a under the hand: got %q at its place, want a", got)
		}
		if got := idAt(up.Layout, 15, 15); got != "" {
			t.Fatalf("the detection under the hand became disk %q", got)
		}
	}
}

// inPixels gives a reading in pixels only, as a detector without a
// calibration does (x, y, r equal px, py, pr).
func inPixels(l models.Layout) models.Layout {
	for i := range l.Disks {
		p := l.Disks[i].Pixel
		l.Disks[i].X, l.Disks[i].Y, l.Disks[i].R = models.Centimetres(p.PX), models.Centimetres(p.PY), models.Centimetres(p.PR)
	}
	return l
}

func TestABumpedCameraIsReanchored(t *testing.T) {
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 40, 10, 2.54, 3}, {"c", 25, 35, 2.225, 3}, {"d", 60, 40, 3.175, 3}}
	tr := NewTracker(Options{})
	rng := rand.New(rand.NewPCG(12, 12))
	first := tr.Observe(Observation{Layout: inPixels(reading(ps, rng, 0)), Settled: true})
	// The camera turns: every pixel moves by the same similarity.
	l := reading(ps, rng, 0)
	th, sc := 0.02, 1.01
	for i := range l.Disks {
		p := l.Disks[i].Pixel
		u := sc*(math.Cos(th)*p.PX-math.Sin(th)*p.PY) + 14
		v := sc*(math.Sin(th)*p.PX+math.Cos(th)*p.PY) - 9
		l.Disks[i].Pixel = &models.ImageCircle{PX: u, PY: v, PR: p.PR * sc}
	}
	up := tr.Observe(Observation{Layout: inPixels(l), Settled: true})
	if !slices.ContainsFunc(up.Events, func(e Event) bool { return e.Kind == "bump" }) {
		t.Fatalf("got events %+v, want a bump", up.Events)
	}
	for _, p := range ps {
		want := idAt(first.Layout, 10*p.x, 10*p.y)
		// Re-anchored positions are in the first view's pixels.
		if got := idAt(up.Layout, 10*p.x, 10*p.y); got != want || want == "" {
			t.Errorf("the disk at (%.0f, %.0f) px after the bump: got id %q, want %q", 10*p.x, 10*p.y, got, want)
		}
	}
}

func TestAViewChangedBeyondRecognitionAsksForCalibration(t *testing.T) {
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 40, 10, 2.54, 3}, {"c", 25, 35, 2.225, 3}, {"d", 60, 40, 3.175, 3}}
	tr := start(t, ps, Options{})
	// Every disk somewhere else, in no common motion.
	moved := []piece{{"a", 14, 8, 2.54, 3}, {"b", 38, 16, 2.54, 3}, {"c", 21, 33, 2.225, 3}, {"d", 63, 45, 3.175, 3}}
	up := tr.Observe(Observation{Layout: reading(moved, rand.New(rand.NewPCG(13, 13)), 0), Settled: true})
	if !slices.ContainsFunc(up.Questions, func(q Question) bool { return q.Kind == "recalibrate" }) {
		t.Errorf("got questions %+v, want a recalibrate question", up.Questions)
	}
}

func TestAdoptRefusesADiskItCannotPlace(t *testing.T) {
	ps := []piece{{"a", 10, 10, 2.54, 3}}
	tr := start(t, ps, Options{})
	_, err := tr.Adopt(roster([]piece{{"z", 50, 50, 2.54, 3}}))
	if err == nil {
		t.Errorf("adopting a disk where none lies: got no error")
	}
}

func TestTokensTouchingDisksAreRenamed(t *testing.T) {
	ps := []piece{{"a", 10, 10, 2.54, 3}}
	tr := start(t, ps, Options{})
	l := reading(ps, rand.New(rand.NewPCG(14, 14)), 0)
	l.Tokens = []models.Token{{ID: "t1", Kind: "arrow", X: 11, Y: 10, R: 1, Touches: []string{l.Disks[0].ID}}}
	up := tr.Observe(Observation{Layout: l, Settled: true})
	if got := up.Layout.Tokens[0].Touches; !slices.Equal(got, []string{"a"}) {
		t.Errorf("got touches %v, want [a]", got)
	}
}

func BenchmarkTrackerObserve20Disks(b *testing.B) {
	var ps []piece
	for i := range 20 {
		ps = append(ps, piece{fmt.Sprintf("p%d", i), float64(10 * (i % 5)), float64(10 * (i / 5)), 2.54, 3})
	}
	tr := NewTracker(Options{})
	rng := rand.New(rand.NewPCG(1, 1))
	readings := []models.Layout{reading(ps, rng, 0.05), reading(ps, rng, 0.05)}
	b.ResetTimer()
	for i := range b.N {
		tr.Observe(Observation{Layout: readings[i%2], Settled: i%2 == 0})
	}
}

func TestAPhantomDetectionIsNeverAnnounced(t *testing.T) {
	// A detection in one settled reading only (a glint the detector took
	// for a disk) is tentative: no "new" event, no question, no disk.
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 40, 10, 2.54, 3}}
	tr := start(t, ps, Options{})
	rng := rand.New(rand.NewPCG(15, 15))
	glint := append(slices.Clone(ps), piece{"x", 25, 40, 2.54, 3})
	for k, l := range []models.Layout{reading(glint, rng, 0), reading(ps, rng, 0), reading(ps, rng, 0)} {
		up := tr.Observe(Observation{Layout: l, Settled: true})
		if len(up.Events) != 0 || len(up.Questions) != 0 {
			t.Errorf("reading %d: got events %+v and questions %+v, want none", k+1, up.Events, up.Questions)
		}
		if got := idAt(up.Layout, 25, 40); got != "" {
			t.Errorf("reading %d: the glint became disk %s", k+1, got)
		}
	}
}

func TestAGoneQuestionDoesNotKillADiskOnTheTable(t *testing.T) {
	ps := []piece{{"a", 10, 10, 2.54, 3}, {"b", 40, 10, 2.54, 3}, {"c", 70, 10, 3.175, 3}}
	cases := []struct {
		name string
		// back shows c again after the question was asked.
		back func(tr *Tracker, rng *rand.Rand)
		// closed: the question is closed by then (a settled reading saw
		// c; an intermediate one only shows it is there, for Answer).
		closed bool
	}{
		{"c removed after three readings, then seen again at its place", func(tr *Tracker, rng *rand.Rand) {
			tr.Observe(Observation{Layout: reading(ps[:2], rng, 0), Settled: true})
			tr.Observe(Observation{Layout: reading(ps[:2], rng, 0), Settled: true})
			tr.Observe(Observation{Layout: reading(ps, rng, 0), Settled: true})
		}, true},
		{"c seen again in an intermediate reading", func(tr *Tracker, rng *rand.Rand) {
			tr.Observe(Observation{Layout: reading(ps, rng, 0)})
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := start(t, ps, Options{})
			rng := rand.New(rand.NewPCG(16, 16))
			up := tr.Observe(Observation{Layout: reading(ps[:2], rng, 0), Settled: true})
			i := slices.IndexFunc(up.Questions, func(q Question) bool { return q.Kind == "gone" })
			if i < 0 {
				t.Fatalf("c unseen: got questions %+v, want one asking whether c was taken off", up.Questions)
			}
			q := up.Questions[i]
			c.back(tr, rng)
			if open := tr.Questions(); c.closed && slices.ContainsFunc(open, func(o Question) bool { return o.Kind == "gone" }) {
				t.Errorf("c seen again: got open questions %+v, want no gone question", open)
			}
			if err := tr.Answer(q, true, ""); err == nil {
				t.Errorf("answering yes to %q with c on the table: got no error", q.Text)
			}
			up = tr.Observe(Observation{Layout: reading(ps, rng, 0), Settled: true})
			if got := idAt(up.Layout, 70, 10); got != "c" {
				t.Errorf("after the answer: got %q at c's place, want c", got)
			}
		})
	}
}

func TestTracksAndQuestionsStayBounded(t *testing.T) {
	t.Run("a glint every other reading for 20000 readings", func(t *testing.T) {
		ps := []piece{{"a", 10, 10, 2, 3}, {"b", 40, 10, 2, 3}}
		tr := start(t, ps, Options{})
		rng := rand.New(rand.NewPCG(17, 17))
		for i := range 20000 {
			l := reading(ps, rng, 0)
			if i%2 == 0 {
				l.Disks = append(l.Disks, models.Disk{ID: "g", X: models.Centimetres(60 + i%7*10), Y: models.Centimetres(50 + i%11*3), R: 1.5,
					Pixel: &models.ImageCircle{PX: float64(600 + i%7*100), PY: float64(500 + i%11*30), PR: 15}})
			}
			tr.Observe(Observation{Frame: i, Layout: l, Settled: true})
		}
		if n := len(tr.tracks); n > 3 {
			t.Errorf("got %d tracks, want the 2 disks and at most the one glint being looked at", n)
		}
		if qs := tr.Questions(); len(qs) != 0 {
			t.Errorf("got open questions %+v, want none", qs)
		}
	})
	t.Run("a disk laid down and taken off, 500 times", func(t *testing.T) {
		// Each is asked about once unseen, then removed at the second
		// reading without it, its question left unanswered.
		tr := NewTracker(Options{MissingRulings: 2})
		rng := rand.New(rand.NewPCG(18, 18))
		var last piece
		for i := range 500 {
			last = piece{fmt.Sprintf("p%d", i), float64(5 * (i % 40)), float64(8 * (i / 40)), 2.54, 3}
			for range 2 {
				tr.Observe(Observation{Layout: reading([]piece{last}, rng, 0), Settled: true})
			}
			for range 2 {
				tr.Observe(Observation{Layout: models.Layout{Version: 1}, Settled: true})
			}
		}
		if n := len(tr.tracks); n > keepRemoved {
			t.Errorf("got %d tracks kept, want at most %d removed ones", n, keepRemoved)
		}
		if n := len(tr.Questions()); n > keepRemoved {
			t.Errorf("got %d open questions, want at most one per remembered disk (%d)", n, keepRemoved)
		}
		up := tr.Observe(Observation{Layout: reading([]piece{last}, rng, 0), Settled: true})
		if !slices.ContainsFunc(up.Events, func(e Event) bool { return e.Kind == "seen-again" }) {
			t.Errorf("the disk removed last, back at its place: got events %+v, want it seen again", up.Events)
		}
	})
}
