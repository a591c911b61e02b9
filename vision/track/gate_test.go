package track

import (
	"slices"
	"testing"
)

func TestGateRulesOnceAfterTheTableSettles(t *testing.T) {
	g := Gate{Options: GateOptions{QuietFrames: 2, SettleFrames: 4}}
	type frame struct {
		moving, hand bool
		want         Phase
	}
	frames := []frame{
		{true, false, Moving},
		{false, false, Waiting},
		{false, false, Quiet},
		{false, false, Waiting},
		{false, false, Settled},
		{false, false, Rest},
		{false, false, Rest},
		{true, true, Moving}, // a hand comes in
		{false, true, Moving},
		{false, true, Quiet}, // held still: read, never rule
		{false, true, Moving},
		{false, true, Moving},
		{false, true, Moving},
		{true, false, Moving}, // the hand leaves
		{false, false, Waiting},
		{false, false, Quiet},
		{false, false, Waiting},
		{false, false, Settled},
	}
	for i, f := range frames {
		if got := g.Observe(f.moving, f.hand); got != f.want {
			t.Errorf("frame %d (moving %v, hand %v): got %v, want %v", i, f.moving, f.hand, got, f.want)
		}
	}
}

func TestGateNeverRulesWithinSettleFramesOfMotion(t *testing.T) {
	var g Gate
	still := 0
	for i := range 2000 {
		moving := (i*7919)%13 == 0 || (i/50)%3 == 0
		hand := (i/70)%4 == 1
		ph := g.Observe(moving, hand)
		if moving {
			still = 0
		} else {
			still++
		}
		if ph == Settled && (hand || still < 15) {
			t.Fatalf("frame %d: ruled with hand %v after %d still frames", i, hand, still)
		}
	}
}

func TestPhaseNames(t *testing.T) {
	for p, want := range map[Phase]string{Moving: "moving", Waiting: "waiting", Quiet: "quiet", Settled: "settled", Rest: "rest"} {
		if got := p.String(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestGateReadsOnceBeforeEveryRuling(t *testing.T) {
	// Whatever the settle count, a ruling has a reading of the same rest
	// before it (to confirm a new disk by), but for a one-frame gate.
	for settle := 1; settle <= 16; settle++ {
		g := Gate{Options: GateOptions{SettleFrames: settle}}
		g.Observe(true, false)
		var phases []Phase
		for range settle {
			phases = append(phases, g.Observe(false, false))
		}
		quiet := 0
		for _, ph := range phases {
			if ph == Quiet {
				quiet++
			}
		}
		wantQuiet := 1
		if settle == 1 {
			wantQuiet = 0
		}
		if phases[len(phases)-1] != Settled || quiet != wantQuiet {
			t.Errorf("settle %d: got phases %v, want %d quiet read(s) then a ruling at the last frame", settle, phases, wantQuiet)
		}
	}
}

func TestGateDoesNotRuleWhenAHandIsMissedForAFrame(t *testing.T) {
	// A hand rests still over the table; the differ misses it in one
	// frame now and then (its skin share or area at the threshold). The
	// table is not settled: no ruling until SettleFrames frames in a row
	// without a hand, and at most one per rest.
	cases := []struct {
		name string
		hand func(i int) bool // frame i after the motion
		want []int            // frames ruled at
	}{
		{"hand missed at frame 20", func(i int) bool { return i != 20 }, nil},
		{"hand missed every tenth frame", func(i int) bool { return i%10 != 0 }, nil},
		{"hand gone from frame 20", func(i int) bool { return i < 20 }, []int{34}},
		{"no hand", func(int) bool { return false }, []int{14}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var g Gate
			g.Observe(true, true)
			var got []int
			for i := range 100 {
				if g.Observe(false, c.hand(i)) == Settled {
					got = append(got, i)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got rulings at frames %v, want %v", got, c.want)
			}
		})
	}
}
