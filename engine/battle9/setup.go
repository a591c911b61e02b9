package battle9

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Reasons a placement is refused; test with errors.Is.
var (
	ErrSetupOver    = errors.New("the setup is over")
	ErrSetupNotOver = errors.New("the setup is not over")
	ErrNotYourTurn  = errors.New("not your turn to place")
	ErrNoneLeft     = errors.New("no such unit left to place")
	ErrOutsideRows  = errors.New("outside your rows")
	ErrOccupied     = errors.New("square already occupied")
	ErrNeedRandom   = errors.New("a tie needs a random source")
	ErrAttacksKing  = errors.New("no unit may be placed where it could capture a King")
)

// Setup is the placing of both armies before the battle. It is an
// immutable value: Place returns a new Setup.
//
// The player with more units sets up first and is the First side (rows
// 1-3); on a tie a coin decides. The players place one unit at a time in
// turn; as soon as one has placed his last unit the other places all the
// rest. No placement may leave a King capturable (see Place). The player
// who did not place the last unit moves first.
type Setup struct {
	pos      Position
	firstIdx int      // which lineup (0 or 1) is the First side
	left     [2][]int // units left to place, per side, in table order
	next     Side     // who places next
	last     Side     // who placed the last unit so far
	done     bool
}

// Placement is one unit put on one square.
type Placement struct {
	Unit   string
	Square Square
}

// NewSetup starts the setup of two armies (checked lineups of players 1
// and 2). rng decides who sets up first on a tie; it may be nil when the
// armies differ in size. An army is checked again against t's lineup
// rules, so one built by hand rather than by Table.Army cannot bring more
// than the budget, more than MaxUnits units or a bought King onto the
// board; the error wraps ErrLineup and its reason (ErrOverBudget ...).
func NewSetup(t *Table, a, b Army, rng *rand.Rand) (Setup, error) {
	armies := [2]Army{a, b}
	for i, ar := range armies {
		if ar.Race == nil {
			return Setup{}, fmt.Errorf("army %d: no race: check the lineup with Table.Army first", i+1)
		}
		if r, ok := t.Race(ar.Race.Name); !ok || len(r.Units) != len(ar.Counts) {
			return Setup{}, fmt.Errorf("army %d (%s): not checked against this unit table", i+1, ar.Race.Name)
		}
		if err := t.recheck(ar); err != nil {
			return Setup{}, fmt.Errorf("army %d (%s): %w", i+1, ar.Race.Name, err)
		}
	}
	first := 0
	switch {
	case b.Size() > a.Size():
		first = 1
	case a.Size() == b.Size():
		if rng == nil {
			return Setup{}, fmt.Errorf("both armies have %d units: %w", a.Size(), ErrNeedRandom)
		}
		first = rng.IntN(2)
	}
	pos, err := NewPosition(t, armies[first].Race.Name, armies[1-first].Race.Name)
	if err != nil {
		return Setup{}, err
	}
	s := Setup{pos: pos, firstIdx: first, next: First}
	s.left[First] = slices.Clone(armies[first].Counts)
	s.left[Second] = slices.Clone(armies[1-first].Counts)
	return s, nil
}

// FirstPlayer is the lineup (0 for a, 1 for b given to NewSetup) that
// sets up first, on rows 1-3.
func (s Setup) FirstPlayer() int { return s.firstIdx }

// Next is the side to place a unit; false once every unit is placed.
func (s Setup) Next() (Side, bool) { return s.next, !s.done }

// Board is the position so far (the first side to move).
func (s Setup) Board() Position { return s.pos }

// Left is how many units side sd has still to place, by unit name.
func (s Setup) Left(sd Side) map[string]int {
	out := map[string]int{}
	for i, n := range s.left[sd] {
		if n > 0 {
			out[s.pos.races[sd].Units[i].Name] = n
		}
	}
	return out
}

func (s Setup) count(sd Side) int {
	n := 0
	for _, k := range s.left[sd] {
		n += k
	}
	return n
}

// HomeRows says whether sq is on side sd's rows: 1-3 for the first
// player, 7-9 for the other.
func HomeRows(sd Side, sq Square) bool {
	if sd == First {
		return sq.Row() < 3
	}
	return sq.Row() >= Size-3
}

// Place puts one of side sd's units on sq.
//
// No placement may leave a King capturable: not the placer's own King
// (ErrKingCapturable: "A player is not allowed to move in such a way
// that his King ... can be captured"), nor the opponent's (ErrAttacksKing:
// the opponent cannot move before the battle to answer, and the player
// who places last must not begin the battle with his King capturable).
// A side's Kings count once all of them are placed: with several elf
// Kings only the last one must be safe. So the battle always begins with
// neither King capturable.
func (s Setup) Place(sd Side, unit string, sq Square) (Setup, error) {
	prev := s
	if s.done {
		return s, ErrSetupOver
	}
	if sd != s.next {
		return s, fmt.Errorf("the %s player places now: %w", s.next, ErrNotYourTurn)
	}
	if !sq.Valid() {
		return s, fmt.Errorf("square %d: %w", sq, ErrOutsideRows)
	}
	if !HomeRows(sd, sq) {
		return s, fmt.Errorf("%s: the %s player places on rows %s: %w", sq, sd, rowsOf(sd), ErrOutsideRows)
	}
	if s.pos.board[sq].full {
		return s, fmt.Errorf("%s: %w", sq, ErrOccupied)
	}
	u, ok := s.pos.races[sd].Unit(unit)
	i := slices.Index(s.pos.races[sd].Units, u)
	if !ok || s.left[sd][i] == 0 {
		return s, fmt.Errorf("%q (left: %s): %w", unit, describe(s.Left(sd)), ErrNoneLeft)
	}
	s.left = [2][]int{slices.Clone(s.left[0]), slices.Clone(s.left[1])}
	s.left[sd][i]--
	s.pos.board[sq] = cell{full: true, side: sd, unit: uint8(i)}
	if err := s.checkKings(sd, sq); err != nil {
		return prev, err
	}
	s.last = sd
	switch {
	case s.count(sd.Other()) > 0:
		s.next = sd.Other()
	case s.count(sd) > 0:
		s.next = sd
	default:
		s.done = true
	}
	return s, nil
}

// checkKings refuses side sd's unit just placed on sq when it leaves a
// King capturable: sd's own, or the opponent's.
func (s Setup) checkKings(sd Side, sq Square) error {
	pc, _ := s.pos.At(sq)
	if s.kingsPlaced(sd) {
		if by := s.pos.attackers(sd); len(by) > 0 {
			return fmt.Errorf("%s on %s: %s: %w", pc.Unit.Name, sq, s.threat(sd, by), ErrKingCapturable)
		}
	}
	if o := sd.Other(); s.kingsPlaced(o) {
		if by := s.pos.attackers(o); len(by) > 0 {
			return fmt.Errorf("%s on %s: %s: %w", pc.Unit.Name, sq, s.threat(o, by), ErrAttacksKing)
		}
	}
	return nil
}

// kingsPlaced says whether side sd has placed all its Kings.
func (s Setup) kingsPlaced(sd Side) bool {
	r := s.pos.races[sd]
	return s.left[sd][slices.Index(r.Units, r.King())] == 0
}

// threat says which of side sd's Kings the units on by could capture:
// "the orcs' King on e3 could be captured by the dwarfs' Howitzer on e7".
func (s Setup) threat(sd Side, by []Square) string {
	var kings, units []string
	for _, k := range s.pos.Kings(sd) {
		kings = append(kings, k.String())
	}
	for _, sq := range by {
		pc, _ := s.pos.At(sq)
		units = append(units, pc.Unit.Name+" on "+sq.String())
	}
	what := "King on "
	if len(kings) > 1 {
		what = "Kings on "
	}
	return fmt.Sprintf("the %s %s%s could be captured by the %s %s", possessive(s.pos.races[sd].Name), what,
		strings.Join(kings, ", "), possessive(s.pos.races[sd.Other()].Name), strings.Join(units, ", "))
}

// possessive is "dwarfs'" for "dwarfs", "undead's" for "undead".
func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// PlaceRest puts all of side sd's remaining units at once; it is allowed
// only when the other player has placed his last unit.
func (s Setup) PlaceRest(sd Side, ps []Placement) (Setup, error) {
	if s.done {
		return s, ErrSetupOver
	}
	if s.count(sd.Other()) > 0 || s.next != sd {
		return s, fmt.Errorf("the other player still has units to place: %w", ErrNotYourTurn)
	}
	if len(ps) != s.count(sd) {
		return s, fmt.Errorf("%d placements for %d units left (%s): %w", len(ps), s.count(sd), describe(s.Left(sd)), ErrNoneLeft)
	}
	next := s
	for _, p := range ps {
		var err error
		if next, err = next.Place(sd, p.Unit, p.Square); err != nil {
			return s, err
		}
	}
	return next, nil
}

// Battle is the position the battle starts from, once every unit is
// placed: "The player who hasn't put the last unit onto the board begins."
// Place has kept both Kings safe, so the position passes Validate.
func (s Setup) Battle() (Position, error) {
	if !s.done {
		return Position{}, ErrSetupNotOver
	}
	p := s.pos.WithToMove(s.last.Other())
	if err := p.Validate(); err != nil {
		return Position{}, fmt.Errorf("the setup ends in a position the rules forbid: %w", err)
	}
	return p, nil
}

func rowsOf(sd Side) string {
	if sd == First {
		return "1-3"
	}
	return "7-9"
}

func describe(left map[string]int) string {
	var parts []string
	for n, k := range left {
		parts = append(parts, fmt.Sprintf("%d %s", k, n))
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
