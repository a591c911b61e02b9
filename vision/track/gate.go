package track

// Phase is what the settle gate makes of the frame just seen.
type Phase int

// The phases of the table.
const (
	// Moving: something moves, or a hand is over the table and has not
	// kept still long enough to read the table around it.
	Moving Phase = iota
	// Waiting: still, but not for long enough to do anything yet.
	Waiting
	// Quiet: still for GateOptions.QuietFrames (a hand may still be over
	// the table): read the table once and buffer the state, rule nothing.
	Quiet
	// Settled: still with no hand for GateOptions.SettleFrames: read the
	// table and rule, once per rest.
	Settled
	// Rest: settled and already ruled on.
	Rest
)

func (p Phase) String() string {
	switch p {
	case Moving:
		return "moving"
	case Waiting:
		return "waiting"
	case Quiet:
		return "quiet"
	case Settled:
		return "settled"
	}
	return "rest"
}

// Reads reports whether the table must be read (detected) in this phase.
func (p Phase) Reads() bool { return p == Quiet || p == Settled }

// GateOptions configure the settle gate; the zero value waits 4 still
// frames before a buffered read and 15 (half a second at 30 frames a
// second) before a ruling. The buffered read comes before the ruling:
// QuietFrames is cut to SettleFrames-1 when it is not below it (a ruling
// then has a reading before it to confirm new disks by), except with a
// SettleFrames of 1, which leaves no frame for it.
type GateOptions struct {
	QuietFrames  int
	SettleFrames int
}

func (o GateOptions) withDefaults() GateOptions {
	if o.QuietFrames <= 0 {
		o.QuietFrames = 4
	}
	if o.SettleFrames <= 0 {
		o.SettleFrames = 15
	}
	if o.QuietFrames >= o.SettleFrames {
		o.QuietFrames = max(1, o.SettleFrames-1)
	}
	return o
}

// Gate decides, frame by frame, when the table may be read and when it
// may be ruled on. Its zero value works. Not safe for concurrent use.
type Gate struct {
	Options GateOptions

	still     int  // frames without motion in a row
	clear     int  // of those, the last ones without a hand
	quietSent bool // the quiet read of this still spell was asked for
	ruled     bool // the ruling of this rest was made
}

// Observe takes the next frame's motion and hand flags and returns the
// phase. A ruling (Settled) comes at most once per rest, and only after
// SettleFrames frames in a row without motion and without a hand: a
// resting hand the differ misses in a frame now and then is no rest.
func (g *Gate) Observe(moving, hand bool) Phase {
	o := g.Options.withDefaults()
	if moving {
		g.still, g.clear, g.quietSent, g.ruled = 0, 0, false, false
		return Moving
	}
	g.still++
	if hand {
		// A hand held still: the table around it may be read, never ruled.
		g.ruled, g.clear = false, 0
		if g.still >= o.QuietFrames && !g.quietSent {
			g.quietSent = true
			return Quiet
		}
		return Moving
	}
	g.clear++
	switch {
	case g.ruled:
		return Rest
	case g.clear >= o.SettleFrames:
		g.ruled = true
		return Settled
	case g.still >= o.QuietFrames && !g.quietSent:
		g.quietSent = true
		return Quiet
	}
	return Waiting
}

// Retry takes back the ruling of this rest, when it could not be made
// (the frame could not be read): the next still frame rules instead.
func (g *Gate) Retry() { g.ruled = false }

// Reset forgets the frames seen (after a correction or a new camera).
func (g *Gate) Reset() { g.still, g.clear, g.quietSent, g.ruled = 0, 0, false, false }
