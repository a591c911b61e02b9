package board9

import (
	"errors"
	"fmt"
	"image"
	"math"

	"tableref/calibration"
	"tableref/engine/battle9"
)

// Reader reads 9x9 boards from frames of one camera.
type Reader struct {
	// Geometry is what the reader assumes of the board's border.
	Geometry Geometry
	// Lens, when set, is the camera's calibrated model: frames are read
	// through it (undistorted). Frames must have its size.
	Lens *calibration.Camera
	// Classes are the looks of an empty square and of each army's
	// pieces; nil: each frame is told apart on its own (Unsupervised),
	// the brighter army taken as the first player's unless DarkFirst.
	Classes   *Classes
	DarkFirst bool
	// Turn is where the camera stands, in quarter turns from behind the
	// first player's edge (0: row 1 along the bottom of the frame). Learn
	// sets it.
	Turn int
	// Tolerance is the most evidence (log-likelihood) the legal-move
	// prior may overrule; zero: DefaultTolerance.
	Tolerance float64
}

// DefaultTolerance lets the legal moves overrule a square or two that the
// colours leave in doubt, but not a square read with confidence.
const DefaultTolerance = 12

// Reading is what the reader sees in one frame.
type Reading struct {
	// Occupancy is the most likely content of each square, in the
	// referee's square order.
	Occupancy battle9.Occupancy
	// Margin is, per square, how much more likely (log-likelihood) the
	// chosen content is than the next best: small means in doubt.
	Margin [N * N]float64
	// Features are the squares' measured colours.
	Features [N * N]Feature
	// Grid is the board found, in the frame convention (intersection
	// (0, 0) is the corner of the bottom side's left end).
	Grid *Grid
	// Classes are the classes used.
	Classes Classes

	scores [N * N][3]float64
}

// Look finds the board in img and reads every square.
func (r *Reader) Look(img image.Image) (*Reading, error) {
	f, err := newFrame(img, r.Lens)
	if err != nil {
		return nil, err
	}
	g, err := findGrid(f, r.Geometry)
	if err != nil {
		return nil, err
	}
	conv := squareFeatures(f, g)
	fs := turned(conv, r.Turn)
	c := Unsupervised(fs)
	if r.DarkFirst {
		c.Mean[1], c.Mean[2] = c.Mean[2], c.Mean[1]
		c.Sigma[1], c.Sigma[2] = c.Sigma[2], c.Sigma[1]
	}
	if r.Classes != nil {
		c = *r.Classes
	}
	return classify(fs, c, g), nil
}

// turned reorders features measured in the frame convention into the
// referee's square order for a camera at the given turn.
func turned(conv [N * N]Feature, turn int) [N * N]Feature {
	var fs [N * N]Feature
	for sq, f := range conv {
		fs[turnSquare(sq%N, sq/N, turn)] = f
	}
	return fs
}

func classify(fs [N * N]Feature, c Classes, g *Grid) *Reading {
	rd := &Reading{Features: fs, Grid: g, Classes: c}
	for sq, f := range fs {
		s := c.scores(f)
		rd.scores[sq] = s
		best := 0
		for k := 1; k < 3; k++ {
			if s[k] > s[best] {
				best = k
			}
		}
		second := math.Inf(-1)
		for k := range 3 {
			if k != best {
				second = math.Max(second, s[k])
			}
		}
		rd.Occupancy[sq] = battle9.Occupant(best)
		rd.Margin[sq] = s[best] - second
	}
	return rd
}

// Learn reads a frame whose occupancy is known (the setup, or any
// position the players agree on): it learns the looks of the empty squares
// and of both armies, and which side of the board the camera stands on
// (the turn under which the known occupancy fits the colours best; a
// position that looks the same turned half round is taken with the first
// player nearest the bottom of the frame). It sets r.Classes and r.Turn.
func (r *Reader) Learn(img image.Image, known battle9.Occupancy) (*Reading, error) {
	f, err := newFrame(img, r.Lens)
	if err != nil {
		return nil, err
	}
	g, err := findGrid(f, r.Geometry)
	if err != nil {
		return nil, err
	}
	conv := squareFeatures(f, g)
	bestTurn, bestLL := -1, math.Inf(-1)
	var bestC Classes
	var lastErr error
	for turn := range 4 {
		c, ll, err := learnClasses(turned(conv, turn), known)
		if err != nil {
			lastErr = err
			continue
		}
		if ll > bestLL+1e-6 {
			bestTurn, bestLL, bestC = turn, ll, c
		}
	}
	if bestTurn < 0 {
		return nil, lastErr
	}
	r.Classes, r.Turn = &bestC, bestTurn
	return classify(turned(conv, bestTurn), bestC, g), nil
}

// Result is the move read from a frame.
type Result struct {
	// Move is the legal move that explains the frame (zero when none).
	Move battle9.Move
	// Reading is what the frame shows, square by square.
	Reading *Reading
	// Explained is the board the move leaves, as a camera sees it; it
	// differs from Reading.Occupancy on Overruled squares.
	Explained battle9.Occupancy
	// Overruled are the squares whose uncertain reading the legal moves
	// corrected.
	Overruled []battle9.Square
	// Cost is the evidence against Explained (log-likelihood).
	Cost float64
}

// Read infers the move played from before to the board in img: of the
// legal moves (and of no move at all), the one whose board the frame
// supports best. When even that one needs squares read with confidence
// overruled, the change is flagged: the error is a *battle9.ChangeError
// wrapping battle9.ErrIllegalChange, listing the changed squares and the
// nearest legal moves. A frame with no change gives one wrapping
// battle9.ErrNoChange.
func (r *Reader) Read(before battle9.Position, img image.Image) (*Result, error) {
	rd, err := r.Look(img)
	if err != nil {
		return nil, err
	}
	return r.Decide(before, rd)
}

// Decide is Read for a frame already looked at.
func (r *Reader) Decide(before battle9.Position, rd *Reading) (*Result, error) {
	tol := r.Tolerance
	if tol == 0 {
		tol = DefaultTolerance
	}
	res := &Result{Reading: rd}
	cost := func(o battle9.Occupancy) float64 {
		var c float64
		for sq := range o {
			s := rd.scores[sq]
			c += math.Max(s[0], math.Max(s[1], s[2])) - s[o[sq]]
		}
		return c
	}
	still := before.Occupancy()
	best, bestCost := still, cost(still)
	for _, m := range before.LegalMoves() {
		p, err := before.Apply(m)
		if err != nil {
			continue
		}
		o := p.Occupancy()
		if c := cost(o); c < bestCost {
			best, bestCost = o, c
		}
	}
	if bestCost > tol {
		_, err := battle9.InferFromOccupancy(before, rd.Occupancy)
		if err == nil {
			err = fmt.Errorf("board9: the frame fits no legal move (%.0f against the nearest)", bestCost)
		}
		return res, err
	}
	res.Explained, res.Cost = best, bestCost
	res.Overruled = best.Diff(rd.Occupancy)
	m, err := battle9.InferFromOccupancy(before, best)
	if err != nil {
		var ce *battle9.ChangeError
		if errors.As(err, &ce) && errors.Is(err, battle9.ErrNoChange) && len(res.Overruled) > 0 {
			ce.Changed = rd.Occupancy.Diff(still)
		}
		return res, err
	}
	res.Move = m
	return res, nil
}
