package diskwars

import (
	"errors"
	"fmt"
	"slices"

	"tableref/engine"
)

// Activation
//
// In turn, clockwise from the first player, each player activates three
// disks; round after round until every disk has acted. A player who
// activates fewer than three ends his activation phase for this turn.
// A blocked disk cannot be activated. Next turn, the first player is the
// player on the left of the current one (the next one clockwise). A
// player under Congélation passes his turn of the next round ("le
// prochain tour de table") without ending his phase.

// PerTurn is how many disks a player activates at his turn of the table.
const PerTurn = 3

// NextFirstPlayer returns the player after first in the clockwise seating
// order players ("le nouveau premier joueur est celui qui se trouve à la
// gauche du premier joueur actuel"), and false when first is not seated.
func NextFirstPlayer(players []string, first string) (string, bool) {
	k := slices.Index(players, first)
	if k < 0 {
		return "", false
	}
	return players[(k+1)%len(players)], true
}

// Clockwise returns the players in activation order: first, then the
// players on his left in seating order.
func Clockwise(players []string, first string) ([]string, error) {
	k := slices.Index(players, first)
	if k < 0 {
		return nil, fmt.Errorf("first player %q is not among the players %v", first, players)
	}
	return append(slices.Clone(players[k:]), players[:k]...), nil
}

// ErrActivation marks an activation the rules forbid.
var ErrActivation = errors.New("illegal activation")

// ActivationPhase is the state of an activation phase. It is a value:
// Activate returns a new phase and leaves the old one as it was.
type ActivationPhase struct {
	order     []string
	left      map[string]int
	done      map[string]bool
	frozen    map[string]int // the round a frozen player passes
	next      int
	history   []Activation
	roundOver bool
}

// Activation is one player's turn at the table: how many disks he
// activated, in which round.
type Activation struct {
	Player string `json:"player"`
	Count  int    `json:"count"`
	Round  int    `json:"round"`
	// Ended is true when the player activated fewer than three and so
	// ended his activation phase.
	Ended bool `json:"ended,omitempty"`
	// Frozen is true when the player passed under Congélation.
	Frozen bool `json:"frozen,omitempty"`
}

// NewActivationPhase starts a phase: players in clockwise seating order,
// the first player, and how many disks each player can activate (not
// blocked, not yet activated).
func NewActivationPhase(players []string, first string, available map[string]int) (ActivationPhase, error) {
	order, err := Clockwise(players, first)
	if err != nil {
		return ActivationPhase{}, err
	}
	p := ActivationPhase{order: order, left: map[string]int{}, done: map[string]bool{}, frozen: map[string]int{}}
	for _, pl := range order {
		if available[pl] < 0 {
			return ActivationPhase{}, fmt.Errorf("player %q: %d disks available is negative", pl, available[pl])
		}
		p.left[pl] = available[pl]
		p.done[pl] = available[pl] == 0
	}
	p.skipDone()
	return p, nil
}

// AvailableFrom counts, for each owner, the creature disks that can be
// activated on the table: not activated and not blocked.
func AvailableFrom(t *engine.Table) map[string]int {
	out := map[string]int{}
	c := creatureContacts(t, nil)
	for i, d := range t.Disks() {
		if IsCreature(d) && d.Owner != "" && !d.Activated && !spent(d) && len(blockersIn(c, i)) == 0 {
			out[d.Owner]++
		}
	}
	return out
}

func (p ActivationPhase) clone() ActivationPhase {
	c := p
	c.left, c.done, c.frozen = cloneInts(p.left), cloneBools(p.done), cloneInts(p.frozen)
	c.history = slices.Clone(p.history)
	return c
}

func cloneInts(m map[string]int) map[string]int {
	c := make(map[string]int, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func cloneBools(m map[string]bool) map[string]bool {
	c := make(map[string]bool, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Over reports whether every player has ended his activation phase.
func (p ActivationPhase) Over() bool {
	for _, pl := range p.order {
		if !p.done[pl] {
			return false
		}
	}
	return true
}

// Current returns the player whose turn it is; false when the phase is over.
func (p ActivationPhase) Current() (string, bool) {
	if p.Over() {
		return "", false
	}
	return p.order[p.next%len(p.order)], true
}

// Round returns the current round, from 1.
func (p ActivationPhase) Round() int { return p.next/len(p.order) + 1 }

// Left returns how many disks the player can still activate.
func (p ActivationPhase) Left(player string) int { return p.left[player] }

// Ended reports whether the player's activation phase is over.
func (p ActivationPhase) Ended(player string) bool { return p.done[player] }

// History returns the activations so far.
func (p ActivationPhase) History() []Activation { return slices.Clone(p.history) }

// Frozen reports whether the player will pass a turn at the table
// (Congélation cast on him, not yet served).
func (p ActivationPhase) Frozen(player string) bool { return p.frozen[player] > 0 }

// FrozenRound returns the round whose turn the player will pass under
// Congélation, 0 for none.
func (p ActivationPhase) FrozenRound(player string) int { return p.frozen[player] }

// Order returns the players in activation order, the first player first.
func (p ActivationPhase) Order() []string { return slices.Clone(p.order) }

// Freeze records the spell Congélation cast on player during the last
// turn recorded (the first player's first turn when none is): "l'adversaire
// ciblé ne pourra pas activer ses 3 Disks lors du prochain tour de table
// (il passe son tour mais cela ne termine pas sa phase d'activation pour
// autant)". A "tour de table" is a round, so he passes his turn of the
// round after that turn's, whether or not he has played in that turn's
// round. "Un joueur ne peut pas être congelé 2 fois de suite": freezing a
// player who is already frozen, or who passed the round of the cast
// frozen, is an error wrapping ErrActivation. So is freezing the player
// who cast it (the player of that turn): the spell targets "l'adversaire".
func (p ActivationPhase) Freeze(player string) (ActivationPhase, error) {
	if _, ok := p.left[player]; !ok {
		return p, fmt.Errorf("%w: %q is not playing", ErrActivation, player)
	}
	if caster := p.caster(); caster == player {
		return p, fmt.Errorf("%w: %s cast Congélation in his own turn and cannot freeze himself: it targets an opponent (\"l'adversaire ciblé\")", ErrActivation, player)
	}
	if r := p.frozen[player]; r > 0 {
		return p, fmt.Errorf("%w: %s is already frozen for round %d", ErrActivation, player, r)
	}
	cast := p.castRound()
	for _, h := range slices.Backward(p.history) {
		if h.Player == player && h.Frozen && h.Round >= cast {
			return p, fmt.Errorf("%w: %s passed his turn of round %d frozen: a player cannot be frozen twice in a row", ErrActivation, player, h.Round)
		}
	}
	c := p.clone()
	c.frozen[player] = cast + 1
	c.skipDone()
	return c, nil
}

// caster returns the player of the last turn recorded in which disks
// were activated (the turn a spell cast now was cast in), or the first
// player when there is none.
func (p ActivationPhase) caster() string {
	for _, h := range slices.Backward(p.history) {
		if !h.Frozen {
			return h.Player
		}
	}
	return p.order[0]
}

// castRound returns the round of the last turn recorded in which disks
// were activated, or the current round when there is none.
func (p ActivationPhase) castRound() int {
	for _, h := range slices.Backward(p.history) {
		if !h.Frozen {
			return h.Round
		}
	}
	return p.Round()
}

// Activate records that the current player activates n disks (0 to 3).
// Fewer than three ends his phase; more than three, more than he has, or
// a player out of turn is an error wrapping ErrActivation.
func (p ActivationPhase) Activate(player string, n int) (ActivationPhase, error) {
	cur, ok := p.Current()
	switch {
	case !ok:
		return p, fmt.Errorf("%w: the activation phase is over", ErrActivation)
	case player != cur:
		return p, fmt.Errorf("%w: it is %s's turn, not %s's", ErrActivation, cur, player)
	case n < 0 || n > PerTurn:
		return p, fmt.Errorf("%w: a player activates up to %d disks at his turn, not %d", ErrActivation, PerTurn, n)
	case n > p.left[player]:
		return p, fmt.Errorf("%w: %s has only %d disks left to activate, not %d", ErrActivation, player, p.left[player], n)
	}
	c := p.clone()
	c.left[player] -= n
	a := Activation{Player: player, Count: n, Round: p.Round()}
	if n < PerTurn || c.left[player] == 0 {
		c.done[player] = true
		a.Ended = true
	}
	c.history = append(c.history, a)
	c.next++
	c.skipDone()
	return c, nil
}

// skipDone moves the turn past players whose phase is over, and past a
// player frozen for the current round (who passes once).
func (p *ActivationPhase) skipDone() {
	for range 2 * len(p.order) {
		if p.Over() {
			return
		}
		pl := p.order[p.next%len(p.order)]
		switch {
		case p.done[pl]:
			p.next++
		case p.frozen[pl] == p.Round():
			delete(p.frozen, pl)
			p.history = append(p.history, Activation{Player: pl, Round: p.Round(), Frozen: true})
			p.next++
		default:
			return
		}
	}
}
