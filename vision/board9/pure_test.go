package board9

import (
	"errors"
	"math"
	"testing"

	"tableref/engine/battle9"
)

func TestFitHomographyRecoversAKnownOne(t *testing.T) {
	want := homography{{30, 4, 100}, {-3, 28, 400}, {0.001, -0.002, 1}}
	var src, dst []point
	for j := range Lines {
		for i := range Lines {
			p := point{float64(i), float64(j)}
			q, _ := want.apply(p)
			src, dst = append(src, p), append(dst, q)
		}
	}
	got, err := fitHomography(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	for k := range src {
		q, _ := got.apply(src[k])
		if d := math.Hypot(q.X-dst[k].X, q.Y-dst[k].Y); d > 1e-6 {
			t.Fatalf("point %v: got %v, want %v", src[k], q, dst[k])
		}
	}
	inv, ok := got.inverse()
	if !ok {
		t.Fatal("no inverse")
	}
	if back, _ := inv.apply(dst[37]); math.Hypot(back.X-src[37].X, back.Y-src[37].Y) > 1e-9 {
		t.Errorf("inverse: got %v, want %v", back, src[37])
	}
	if _, err := fitHomography(src[:3], dst[:3]); !errors.Is(err, errDegenerate) {
		t.Errorf("three points: got %v, want errDegenerate", err)
	}
	line := []point{{0, 0}, {1, 1}, {2, 2}, {3, 3}}
	if _, err := fitHomography(line, line); !errors.Is(err, errDegenerate) {
		t.Errorf("points in a line: got %v, want errDegenerate", err)
	}
}

func TestRobustFitIgnoresAWrongIntersection(t *testing.T) {
	want := homography{{20, 0, 50}, {0, -20, 300}, {0, 0, 1}}
	var src, dst []point
	for j := range Lines {
		for i := range Lines {
			p := point{float64(i), float64(j)}
			q, _ := want.apply(p)
			src, dst = append(src, p), append(dst, q)
		}
	}
	dst[55].X += 9 // a dark piece taken for a line
	got, kept, err := robustFit(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if kept != len(src)-1 {
		t.Errorf("kept %d pairs, want %d", kept, len(src)-1)
	}
	q, _ := got.apply(src[55])
	if w, _ := want.apply(src[55]); math.Hypot(q.X-w.X, q.Y-w.Y) > 1e-6 {
		t.Errorf("intersection 55: got %v, want %v", q, w)
	}
}

func TestQuadsOfKeepsABoardWithAChitOnItsSide(t *testing.T) {
	square := []point{{100, 100}, {300, 100}, {300, 300}, {100, 300}}
	// The same outline with a chit sticking out of its bottom side, and
	// extra points along the sides as a contour has.
	bumped := []point{{100, 100}, {200, 100}, {300, 100}, {300, 200}, {300, 300}, {230, 300}, {225, 312}, {205, 312}, {200, 300}, {100, 300}, {100, 200}}
	cases := []struct {
		name string
		poly []point
	}{{"a plain outline", square}, {"an outline with a chit across a side", bumped}}
	for _, c := range cases {
		qs := quadsOf([][]point{c.poly, {{0, 0}, {5, 0}, {5, 5}, {0, 5}}}, 400*400)
		if len(qs) != 1 {
			t.Fatalf("%s: got %d outlines, want 1 (the small one dropped)", c.name, len(qs))
		}
		if d := quadDistance(qs[0], [4]point(square)); d > 3 {
			t.Errorf("%s: got %v, want the square (corners %.1f px off)", c.name, qs[0], d)
		}
	}
	sliver := []point{{0, 0}, {390, 0}, {390, 30}, {0, 30}}
	if qs := quadsOf([][]point{sliver}, 400*400); len(qs) != 0 {
		t.Errorf("a sliver was taken for a board: %v", qs)
	}
}

func TestOrientPutsRowOneAtTheBottom(t *testing.T) {
	// a1 bottom-left, i1 bottom-right, i9 top-right, a9 top-left (y down).
	want := [4]point{{100, 400}, {400, 420}, {390, 100}, {110, 90}}
	for s := range 4 {
		var q [4]point
		for k := range 4 {
			q[k] = want[(k+s)%4]
		}
		if got := orient(q); got != want {
			t.Errorf("shift %d: got %v, want %v", s, got, want)
		}
		// The same corners listed the other way round.
		r := [4]point{q[0], q[3], q[2], q[1]}
		if got := orient(r); got != want {
			t.Errorf("shift %d reversed: got %v, want %v", s, got, want)
		}
	}
}

func TestTurnsAreRotations(t *testing.T) {
	for sq := range N * N {
		f, r := sq%N, sq/N
		if got := turnSquare(f, r, 4); got != sq {
			t.Errorf("square %d turned four times: got %d", sq, got)
		}
		if got := turnSquare(f, r, 0); got != sq {
			t.Errorf("square %d turned zero times: got %d", sq, got)
		}
		// A square's lower-left corner turned is one of the turned
		// square's corners.
		t1 := turnSquare(f, r, 1)
		ci, cj := turnCorner(f, r, 1)
		if dx, dy := ci-t1%N, cj-t1/N; dx < 0 || dx > 1 || dy < 0 || dy > 1 {
			t.Errorf("square %d: turned corner (%d, %d) is not a corner of turned square %d", sq, ci, cj, t1)
		}
	}
	if got := turnSquare(0, 0, 2); got != 80 {
		t.Errorf("a1 turned half round: got %d, want 80 (i9)", got)
	}
}

// features of a board: empty squares near 0, first-player pieces bright
// (ivory over wood), second-player pieces dark, with a little noise.
func syntheticFeatures(o battle9.Occupancy) [N * N]Feature {
	var fs [N * N]Feature
	looks := [3]Feature{{0, 0, 0}, {0.2, 0.35, 0.6}, {-1.5, -1.6, -1.4}}
	for sq, v := range o {
		for ch := range 3 {
			fs[sq][ch] = looks[v][ch] + 0.03*math.Sin(float64(7*sq+3*ch))
		}
	}
	return fs
}

func setupOccupancy(t *testing.T) battle9.Occupancy {
	t.Helper()
	p, err := battle9.ParsePosition(Openings[0], battle9.DefaultTable())
	if err != nil {
		t.Fatal(err)
	}
	return p.Occupancy()
}

func TestUnsupervisedTellsTheArmiesApart(t *testing.T) {
	o := setupOccupancy(t)
	c := Unsupervised(syntheticFeatures(o))
	rd := classify(syntheticFeatures(o), c, nil)
	if diff := rd.Occupancy.Diff(o); len(diff) != 0 {
		t.Errorf("misread squares %v: got %s, want %s", diff, rd.Occupancy, o)
	}
}

func TestLearnClassesNeedsEveryClass(t *testing.T) {
	var o battle9.Occupancy
	o[0] = battle9.FirstUnit
	if _, _, err := learnClasses(syntheticFeatures(o), o); err == nil {
		t.Errorf("a board without a second-player piece: learned classes, want an error")
	}
	o = setupOccupancy(t)
	c, _, err := learnClasses(syntheticFeatures(o), o)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mean[2][0] > -1 || c.Mean[1][2] < 0.5 {
		t.Errorf("learned means %v: want the dark second army and the bright first", c.Mean)
	}
}

// Decide with made-up evidence: one square in doubt is settled by the
// legal moves; a confident square that no legal move explains is flagged.
func TestDecideUsesTheLegalMovesAsAPrior(t *testing.T) {
	p, err := battle9.ParsePosition("dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1", battle9.DefaultTable())
	if err != nil {
		t.Fatal(err)
	}
	e2, e3, e5 := battle9.Square(13), battle9.Square(22), battle9.Square(40)
	reading := func(doubt battle9.Square, doubtScores [3]float64, o battle9.Occupancy) *Reading {
		rd := &Reading{Occupancy: o}
		for sq := range rd.scores {
			rd.scores[sq] = [3]float64{-50, -50, -50}
			rd.scores[sq][o[sq]] = 0
		}
		if doubt.Valid() {
			rd.scores[doubt] = doubtScores
			best := 0
			for k := range 3 {
				if doubtScores[k] > doubtScores[best] {
					best = k
				}
			}
			rd.Occupancy[doubt] = battle9.Occupant(best)
		}
		return rd
	}
	after := p.Occupancy()
	after[e2], after[e3] = battle9.Empty, battle9.FirstUnit
	var r Reader
	// e2 is read as holding a unit still, barely: the legal moves say e2-e3.
	res, err := r.Decide(p, reading(e2, [3]float64{-2, -1, -40}, after))
	if err != nil {
		t.Fatalf("one square in doubt: %v", err)
	}
	if res.Move.String() != "e2-e3" || len(res.Overruled) != 1 || res.Overruled[0] != e2 {
		t.Errorf("got move %v overruling %v, want e2-e3 overruling e2", res.Move, res.Overruled)
	}
	// The Warrior seen on e5 with confidence: flagged.
	jump := p.Occupancy()
	jump[e2], jump[e5] = battle9.Empty, battle9.FirstUnit
	_, err = r.Decide(p, reading(battle9.NoSquare, [3]float64{}, jump))
	var ce *battle9.ChangeError
	if !errors.As(err, &ce) || !errors.Is(err, battle9.ErrIllegalChange) {
		t.Fatalf("a Warrior on e5: got %v, want an illegal change", err)
	}
	if len(ce.Changed) != 2 {
		t.Errorf("changed squares: got %v, want e2 and e5", ce.Changed)
	}
	// Nothing changed.
	if _, err := r.Decide(p, reading(battle9.NoSquare, [3]float64{}, p.Occupancy())); !errors.Is(err, battle9.ErrNoChange) {
		t.Errorf("the same board: got %v, want ErrNoChange", err)
	}
}
