package diskwars

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"tableref/engine"
)

// Where an activation phase stands, from a layout and the turns played.
//
// The layout is the table now: its top-level "players" in clockwise
// seating order, its "first_player", and the disks with their activation
// markers ("activated"). The steps are the turns at the table played so
// far this phase, in order. The disks each player could activate when
// the phase began are taken to be the disks he can activate now (neither
// activated nor blocked) plus those the steps say he activated.

// ActivationStep is one entry of the phase's history: a player's turn at
// the table in which he activated Count disks, or, with Freeze, the spell
// Congélation cast on Player during the turn recorded just before (the
// first player's first turn when none is): Player passes his turn of the
// next round.
type ActivationStep struct {
	Player string `json:"player"`
	Count  int    `json:"count"`
	Freeze bool   `json:"freeze,omitempty"`
}

// ParseActivationSteps reads a history written "PLAYER=N,PLAYER=N,...":
// PLAYER=N is a turn at the table in which PLAYER activated N disks (0 to
// 3); PLAYER=frozen (or PLAYER=congélation) is Congélation cast on PLAYER.
// Commas or semicolons separate the entries; spaces around them are
// ignored; an empty text is an empty history.
func ParseActivationSteps(s string) ([]ActivationStep, error) {
	var out []ActivationStep
	for k, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		name, val, ok := strings.Cut(f, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !ok || name == "" || val == "" {
			return nil, fmt.Errorf("entry %d %q: want PLAYER=N or PLAYER=frozen", k+1, f)
		}
		switch normalise(val) {
		case "frozen", "freeze", "congelation", "congele":
			out = append(out, ActivationStep{Player: name, Freeze: true})
			continue
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || n > PerTurn {
			return nil, fmt.Errorf("entry %d %q: %q is not a number of disks from 0 to %d, nor \"frozen\"", k+1, f, val, PerTurn)
		}
		out = append(out, ActivationStep{Player: name, Count: n})
	}
	return out, nil
}

// ActivationStatus says where an activation phase stands.
type ActivationStatus struct {
	// Players in clockwise seating order; Order is the activation order,
	// the first player first.
	Players     []string `json:"players"`
	FirstPlayer string   `json:"first_player"`
	Order       []string `json:"order"`
	// Round is the current turn of the table, from 1.
	Round int `json:"round"`
	// Current is the player to activate up to three disks now; empty when
	// the phase is over.
	Current string `json:"current,omitempty"`
	// Over is true when every player has ended his activation phase.
	Over bool `json:"over"`
	// LastRound is the round in which the phase ends if every player goes
	// on activating three disks (or all he has left) at each turn; a
	// player who activates fewer than three ends his own phase earlier.
	LastRound int `json:"last_round"`
	// Standing is each player's state, in activation order.
	Standing []PlayerActivation `json:"standing"`
	History  []Activation       `json:"history"`
	// Disks says, for every creature with an owner, whether it may still
	// be activated this phase and, if not, why.
	Disks []DiskActivation `json:"disks"`
	// NextFirstPlayer is the first player of the next turn: the one on the
	// left of the current first player.
	NextFirstPlayer string   `json:"next_first_player"`
	Warnings        []string `json:"warnings,omitempty"`
}

// PlayerActivation is one player's state in the phase.
type PlayerActivation struct {
	Player string `json:"player"`
	// Left is how many of his disks can still be activated.
	Left int `json:"left"`
	// Ended is true when his activation phase is over; Why says how.
	Ended bool   `json:"ended"`
	Why   string `json:"why,omitempty"`
	// Frozen is true when the player will pass a turn (Congélation), his
	// turn of FrozenRound: the round after the one it was cast in.
	Frozen      bool `json:"frozen,omitempty"`
	FrozenRound int  `json:"frozen_round,omitempty"`
}

// DiskActivation says whether one creature may still be activated.
type DiskActivation struct {
	Disk  string `json:"disk"`
	Owner string `json:"owner"`
	// MayActivate is true when the disk can still be activated this phase;
	// Now is true when, moreover, its player is the one to play.
	MayActivate bool     `json:"may_activate"`
	Now         bool     `json:"now"`
	Reasons     []string `json:"reasons,omitempty"`
}

// ActivationOptions override what the layout says.
type ActivationOptions struct {
	// Players in clockwise seating order, instead of the layout's players.
	Players []string
	// FirstPlayer instead of the layout's first_player.
	FirstPlayer string
}

// StatusOfActivation replays the steps on the table's activation phase and
// says whose turn it is, which disks may still be activated and why the
// others may not, when the phase ends and who is first player next turn.
// Player names in the steps are matched to the seated players exactly, or
// else without regard to case and accents. A step the rules forbid (out of
// turn, more than three disks, more disks than the player has, a player
// frozen twice in a row) is an error wrapping ErrActivation.
func StatusOfActivation(t *engine.Table, steps []ActivationStep, opt ActivationOptions) (ActivationStatus, error) {
	l := t.Layout()
	players, first := l.Players, l.FirstPlayer
	if len(opt.Players) > 0 {
		players = opt.Players
	}
	if opt.FirstPlayer != "" {
		first = opt.FirstPlayer
	}
	if len(players) == 0 {
		return ActivationStatus{}, fmt.Errorf("no players: the layout has no top-level \"players\" (in clockwise seating order) and none were given")
	}
	if first == "" {
		return ActivationStatus{}, fmt.Errorf("no first player: the layout has no top-level \"first_player\" and none was given")
	}
	if f, ok := matchPlayer(players, first); ok {
		first = f
	}
	st := ActivationStatus{Players: slices.Clone(players), FirstPlayer: first}
	played := map[string]int{}
	for k := range steps {
		p, ok := matchPlayer(players, steps[k].Player)
		if !ok {
			return ActivationStatus{}, fmt.Errorf("step %d: %q is not among the players %v", k+1, steps[k].Player, players)
		}
		steps[k].Player = p
		played[p] += steps[k].Count
	}
	now := AvailableFrom(t)
	start := map[string]int{}
	for _, p := range players {
		start[p] = now[p] + played[p]
	}
	phase, err := NewActivationPhase(players, first, start)
	if err != nil {
		return ActivationStatus{}, err
	}
	for k, s := range steps {
		if s.Freeze {
			phase, err = phase.Freeze(s.Player)
		} else {
			phase, err = phase.Activate(s.Player, s.Count)
		}
		if err != nil {
			return ActivationStatus{}, fmt.Errorf("step %d (%s): %w", k+1, describeStep(s), err)
		}
	}
	st.Order = phase.Order()
	st.Round, st.Over, st.History = phase.Round(), phase.Over(), phase.History()
	if st.History == nil {
		st.History = []Activation{}
	}
	st.Current, _ = phase.Current()
	st.LastRound = lastRound(phase)
	st.NextFirstPlayer, _ = NextFirstPlayer(players, first)
	for _, p := range st.Order {
		st.Standing = append(st.Standing, PlayerActivation{Player: p, Left: phase.Left(p), Ended: phase.Ended(p),
			Why: endedWhy(phase, p, start[p]), Frozen: phase.Frozen(p), FrozenRound: phase.FrozenRound(p)})
	}
	st.Disks, st.Warnings = diskActivations(t, phase, st.Current, players, played)
	return st, nil
}

func describeStep(s ActivationStep) string {
	if s.Freeze {
		return s.Player + " frozen"
	}
	return fmt.Sprintf("%s activates %d", s.Player, s.Count)
}

// matchPlayer finds name among players: exactly, or else without regard
// to case and accents.
func matchPlayer(players []string, name string) (string, bool) {
	if slices.Contains(players, name) {
		return name, true
	}
	for _, p := range players {
		if normalise(p) == normalise(name) {
			return p, true
		}
	}
	return "", false
}

// lastRound plays the rest of the phase with every player activating as
// many disks as he can, up to three, and returns the round of the last
// activation (0 when nobody activates anything).
func lastRound(p ActivationPhase) int {
	for range 1 << 16 {
		cur, ok := p.Current()
		if !ok {
			break
		}
		next, err := p.Activate(cur, min(PerTurn, p.Left(cur)))
		if err != nil {
			break
		}
		p = next
	}
	last := 0
	for _, h := range p.History() {
		if !h.Frozen {
			last = h.Round
		}
	}
	return last
}

// endedWhy says how a player's phase ended.
func endedWhy(p ActivationPhase, player string, start int) string {
	if !p.Ended(player) {
		return ""
	}
	if start == 0 {
		return "no disk could be activated when the phase began"
	}
	for _, h := range slices.Backward(p.History()) {
		if h.Player != player || !h.Ended {
			continue
		}
		if p.Left(player) == 0 {
			return fmt.Sprintf("activated the last %s in round %d", plural(h.Count, "disk"), h.Round)
		}
		return fmt.Sprintf("activated %d in round %d, fewer than three, with %d left", h.Count, h.Round, p.Left(player))
	}
	return "no disk left to activate"
}

// diskActivations says for every creature with an owner whether it may
// still be activated; it warns when the history says a player activated
// more disks than carry his activation markers, and about owners who are
// not seated.
func diskActivations(t *engine.Table, p ActivationPhase, current string, players []string, played map[string]int) ([]DiskActivation, []string) {
	out := []DiskActivation{}
	var warnings []string
	markers := map[string]int{}
	unseated := map[string]bool{}
	c := creatureContacts(t, nil)
	for i, d := range t.Disks() {
		if !IsCreature(d) || d.Owner == "" {
			continue
		}
		da := DiskActivation{Disk: d.ID, Owner: d.Owner}
		seated := slices.Contains(players, d.Owner)
		if !seated {
			da.Reasons = append(da.Reasons, fmt.Sprintf("its owner %s is not among the players", d.Owner))
			unseated[d.Owner] = true
		}
		if d.Activated {
			markers[d.Owner]++
			da.Reasons = append(da.Reasons, "it has an activation marker")
		}
		if spent(d) {
			// Read as off the table, as the rulings read it.
			da.Reasons = append(da.Reasons, fmt.Sprintf("it has taken all its wounds (%d): it is off the table", d.WoundsTaken))
		}
		if b := blockersIn(c, i); len(b) > 0 {
			da.Reasons = append(da.Reasons, "it is blocked by "+joinIDs(t, b))
		}
		if seated && p.Ended(d.Owner) {
			da.Reasons = append(da.Reasons, "the activation phase of "+d.Owner+" is over")
		}
		da.MayActivate = len(da.Reasons) == 0
		da.Now = da.MayActivate && d.Owner == current
		out = append(out, da)
	}
	for _, pl := range players {
		if played[pl] > markers[pl] {
			warnings = append(warnings, fmt.Sprintf("the history says %s activated %d disks, but only %d of them carry an activation marker", pl, played[pl], markers[pl]))
		}
	}
	for _, o := range slices.Sorted(maps.Keys(unseated)) {
		warnings = append(warnings, fmt.Sprintf("disks of %s are on the table but %s is not among the players", o, o))
	}
	return out, warnings
}
