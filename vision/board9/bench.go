package board9

import (
	"errors"
	"fmt"
	"image"
	"math/rand/v2"
	"time"

	"tableref/engine/battle9"
	"tableref/vision/synth"
)

// Openings are full boards the benchmark plays random games from: the
// referee's openings (battle9.Openings), battle starts the rules allow.
var Openings = battle9.Openings()

// Case is one benchmark sequence: a board scene, the position before,
// and the board after, reached by a legal move or by an illegal change.
type Case struct {
	Scene  *synth.Board9Scene
	Before battle9.Position
	After  battle9.Occupancy
	// Move is the legal move played; Illegal, when not empty, names the
	// illegal change made instead (vanished, too far, wrong side,
	// appeared).
	Move    battle9.Move
	Illegal string
}

// NewCase builds the sequence of a seed: a random game of up to 30 plies
// from one of the Openings, then (every fourth seed) an illegal change or
// a random legal move, on a board scene of the tier seen from a random
// side.
func NewCase(seed uint64, tier synth.Tier, w, h int) (*Case, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9b0a4d))
	pos, err := battle9.ParsePosition(Openings[seed%uint64(len(Openings))], battle9.DefaultTable())
	if err != nil {
		return nil, err
	}
	for range rng.IntN(31) {
		ms := pos.LegalMoves()
		if len(ms) == 0 {
			break
		}
		next, err := pos.Apply(ms[rng.IntN(len(ms))])
		if err != nil {
			return nil, err
		}
		if len(next.LegalMoves()) == 0 {
			break
		}
		pos = next
	}
	sc, err := synth.NewBoard9(seed, tier, synth.Board9Options{Width: w, Height: h, Turn: rng.IntN(4)})
	if err != nil {
		return nil, err
	}
	c := &Case{Scene: sc, Before: pos}
	if seed%4 == 3 {
		if c.After, c.Illegal = illegalChange(pos, rng); c.Illegal != "" {
			return c, nil
		}
	}
	ms := pos.LegalMoves()
	c.Move = ms[rng.IntN(len(ms))]
	next, err := pos.Apply(c.Move)
	if err != nil {
		return nil, err
	}
	c.After = next.Occupancy()
	return c, nil
}

// illegalChange makes a change of the board no legal move explains.
func illegalChange(p battle9.Position, rng *rand.Rand) (battle9.Occupancy, string) {
	kinds := []string{"vanished", "too far", "wrong side", "appeared"}
	start := p.Occupancy()
	mover := battle9.FirstUnit + battle9.Occupant(p.ToMove())
	for range 200 {
		o := start
		kind := kinds[rng.IntN(len(kinds))]
		sq := rng.IntN(battle9.NumSquares)
		to := rng.IntN(battle9.NumSquares)
		switch kind {
		case "vanished":
			if o[sq] == battle9.Empty {
				continue
			}
			o[sq] = battle9.Empty
		case "too far", "wrong side":
			want := mover
			if kind == "wrong side" {
				want = battle9.FirstUnit + battle9.SecondUnit - mover
				to = sq + []int{1, -1, battle9.Size, -battle9.Size}[rng.IntN(4)]
			}
			if o[sq] != want || to < 0 || to >= battle9.NumSquares || o[to] != battle9.Empty {
				continue
			}
			o[sq], o[to] = battle9.Empty, want
		case "appeared":
			if o[sq] != battle9.Empty {
				continue
			}
			o[sq] = battle9.FirstUnit + battle9.Occupant(rng.IntN(2))
		}
		if _, err := battle9.InferFromOccupancy(p, o); errors.Is(err, battle9.ErrIllegalChange) {
			return o, kind
		}
	}
	return start, ""
}

// Frames renders the case's two settled frames: before and after.
func (c *Case) Frames() (before, after image.Image, err error) {
	if before, err = c.Scene.Render(cells(c.Before.Occupancy()), 0); err != nil {
		return nil, nil, err
	}
	after, err = c.Scene.Render(cells(c.After), 1)
	return before, after, err
}

func cells(o battle9.Occupancy) synth.Board9Cells {
	var c synth.Board9Cells
	for sq, v := range o {
		c[sq] = uint8(v)
	}
	return c
}

// Figures are the benchmark's counts for one tier (or all).
type Figures struct {
	Tier   string `json:"tier"`
	Cases  int    `json:"cases"`
	Boards int    `json:"boards_found"` // frames whose board was found (two a case)
	// Squares read in the after frames with the classes learned from the
	// before frame, and how many right (all 81 of a case count, read or
	// not: a board not found reads none right).
	Squares      int `json:"squares"`
	SquaresRight int `json:"squares_right"`
	// Squares of the before frames read with no learning (Unsupervised;
	// right up to which colour is which army), and how many right.
	Unsupervised      int `json:"unsupervised_squares"`
	UnsupervisedRight int `json:"unsupervised_right"`
	// Legal moves played, recovered exactly, flagged as illegal by
	// mistake, taken for another move.
	Moves       int `json:"moves"`
	MovesRight  int `json:"moves_right"`
	FalseAlarms int `json:"false_alarms"`
	WrongMoves  int `json:"wrong_moves"`
	// Illegal changes made, and flagged.
	Illegal int `json:"illegal"`
	Flagged int `json:"flagged"`
	// Overruled counts the squares the legal-move prior corrected.
	Overruled int `json:"overruled"`
	// Grid is the worst distance (pixels) between a found grid corner and
	// the truth, averaged over frames.
	GridPx float64 `json:"grid_px"`
	// MsPerFrame is the reading time of one frame (rendering excluded).
	MsPerFrame float64 `json:"ms_per_frame"`
}

// SquareAccuracy and the other ratios are in [0, 1]; NaN-free (0 when
// there is nothing to count).
func (f Figures) SquareAccuracy() float64 { return ratio(f.SquaresRight, f.Squares) }

// UnsupervisedAccuracy is the square accuracy with no learning.
func (f Figures) UnsupervisedAccuracy() float64 { return ratio(f.UnsupervisedRight, f.Unsupervised) }

// MoveAccuracy is the share of legal moves recovered exactly.
func (f Figures) MoveAccuracy() float64 { return ratio(f.MovesRight, f.Moves) }

// FlagRate is the share of illegal changes flagged.
func (f Figures) FlagRate() float64 { return ratio(f.Flagged, f.Illegal) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (f *Figures) add(g Figures) {
	ms := f.MsPerFrame*float64(f.Boards) + g.MsPerFrame*float64(g.Boards)
	px := f.GridPx*float64(f.Boards) + g.GridPx*float64(g.Boards)
	f.Cases += g.Cases
	f.Boards += g.Boards
	f.Squares += g.Squares
	f.SquaresRight += g.SquaresRight
	f.Unsupervised += g.Unsupervised
	f.UnsupervisedRight += g.UnsupervisedRight
	f.Moves += g.Moves
	f.MovesRight += g.MovesRight
	f.FalseAlarms += g.FalseAlarms
	f.WrongMoves += g.WrongMoves
	f.Illegal += g.Illegal
	f.Flagged += g.Flagged
	f.Overruled += g.Overruled
	if f.Boards > 0 {
		f.MsPerFrame = ms / float64(f.Boards)
		f.GridPx = px / float64(f.Boards)
	}
}

// BenchConfig sets a benchmark run.
type BenchConfig struct {
	Tiers         []synth.Tier
	Cases         int // per tier
	Width, Height int
	Seed          uint64 // the first case's seed
}

// Measure runs the benchmark: for each case, the reader learns the
// armies' colours and the camera's side from the before frame (its
// position being known), then reads the after frame against the
// position. It returns the figures per tier and then for all tiers.
func Measure(cfg BenchConfig) ([]Figures, error) {
	var out []Figures
	all := Figures{Tier: "all"}
	for _, tier := range cfg.Tiers {
		fig := Figures{Tier: string(tier)}
		for k := range cfg.Cases {
			c, err := NewCase(cfg.Seed+uint64(k), tier, cfg.Width, cfg.Height)
			if err != nil {
				return nil, fmt.Errorf("case %d (%s): %w", cfg.Seed+uint64(k), tier, err)
			}
			g, err := c.measure()
			if err != nil {
				return nil, fmt.Errorf("case %d (%s): %w", cfg.Seed+uint64(k), tier, err)
			}
			fig.add(g)
		}
		all.add(fig)
		out = append(out, fig)
	}
	return append(out, all), nil
}

// measure reads one case and counts.
func (c *Case) measure() (Figures, error) {
	// Every square counts: a frame whose board is not found reads none.
	fig := Figures{Cases: 1, Squares: battle9.NumSquares, Unsupervised: battle9.NumSquares}
	if c.Illegal != "" {
		fig.Illegal = 1
	} else {
		fig.Moves = 1
	}
	before, after, err := c.Frames()
	if err != nil {
		return fig, err
	}
	var r Reader
	t0 := time.Now()
	learned, err := r.Learn(before, c.Before.Occupancy())
	if err != nil {
		return fig, nil // the board was not found: every count stays wrong
	}
	res, rerr := r.Read(c.Before, after)
	elapsed := time.Since(t0)
	if res == nil {
		fig.Boards = 1
		fig.MsPerFrame = float64(elapsed.Microseconds()) / 1000
		return fig, nil
	}
	fig.Boards = 2
	fig.MsPerFrame = float64(elapsed.Microseconds()) / 2000
	fig.GridPx = (c.gridError(learned.Grid, r.Turn) + c.gridError(res.Reading.Grid, r.Turn)) / 2
	fig.SquaresRight = battle9.NumSquares - len(res.Reading.Occupancy.Diff(c.After))
	un := classify(learned.Features, Unsupervised(learned.Features), learned.Grid).Occupancy
	fig.UnsupervisedRight = battle9.NumSquares - min(len(un.Diff(c.Before.Occupancy())), len(swapSides(un).Diff(c.Before.Occupancy())))
	fig.Overruled = len(res.Overruled)
	switch {
	case c.Illegal != "":
		if errors.Is(rerr, battle9.ErrIllegalChange) {
			fig.Flagged = 1
		}
	case rerr != nil:
		fig.FalseAlarms = 1
	default:
		want, _ := c.Before.Apply(c.Move)
		got, _ := c.Before.Apply(res.Move)
		if got.Equal(want) {
			fig.MovesRight = 1
		} else {
			fig.WrongMoves = 1
		}
	}
	return fig, nil
}

func swapSides(o battle9.Occupancy) battle9.Occupancy {
	for sq, v := range o {
		if v != battle9.Empty {
			o[sq] = battle9.FirstUnit + battle9.SecondUnit - v
		}
	}
	return o
}

// gridError is the worst distance (pixels) between the grid's corners
// and where the scene puts them.
func (c *Case) gridError(g *Grid, turn int) float64 {
	worst := 0.0
	for j := range Lines {
		for i := range Lines {
			ti, tj := turnCorner(i, j, turn)
			want, _ := c.Scene.GridPixel(float64(ti), float64(tj))
			u, v := g.Corner(i, j)
			worst = max(worst, hypot(u-want.U, v-want.V))
		}
	}
	return worst
}
