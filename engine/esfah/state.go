package esfah

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Event kinds of an Esfah campaign.
const (
	KindSetup    = "setup"    // players, battle size, terrain pool
	KindOrder    = "order"    // order of play from Horde maneuver totals
	KindCapture  = "capture"  // a player captures a terrain in play
	KindExpand   = "expand"   // a terrain die drawn from the pool into play
	KindRecruit  = "recruit"  // an army recruits from its player's pool
	KindDeath    = "death"    // units killed (kept for the history)
	KindEndRound = "end-turn" // every player has completed a turn
)

// Event is one change to an Esfah campaign. Only the fields of its kind
// are used.
type Event struct {
	Kind        string            `json:"kind"`
	Player      string            `json:"player,omitempty"`
	Players     []string          `json:"players,omitempty"`
	TotalHealth Health            `json:"total_health,omitempty"`
	Terrains    []string          `json:"terrains,omitempty"`
	Maneuvers   map[string]int    `json:"maneuvers,omitempty"`
	Terrain     string            `json:"terrain,omitempty"`
	ArmyName    string            `json:"army,omitempty"`
	Forces      *Army             `json:"forces,omitempty"`
	Spend       *Spend            `json:"spend,omitempty"`
	Health      Health            `json:"health,omitempty"`
	Race        string            `json:"race,omitempty"`
	Natives     map[string]string `json:"natives,omitempty"`
	// Rerolls are the Horde maneuver totals rerolled by players who tie
	// (order events): one map per group of tied players, in the order
	// rolled; a group that ties again rolls again in a later map.
	Rerolls []map[string]int `json:"rerolls,omitempty"`
}

// Effect is what an event changed for one player: Resource "pool" is the
// recruiting pool, "health:<race>" the health of a race in play,
// "terrain" the number of terrain held.
type Effect struct {
	Player   string `json:"player"`
	Resource string `json:"resource"`
	Delta    int    `json:"delta"`
	Source   string `json:"source"`
}

// State is an Esfah campaign between two events. It is a value: Apply
// returns a new State and never changes the one it is called on.
type State struct {
	Size    BattleSize        `json:"size"`
	Players []string          `json:"players"`
	Order   []string          `json:"order,omitempty"`
	Pool    map[string]Health `json:"pool"`
	// Round is the turn every player is playing, from 1; Completed the
	// turns every player has completed.
	Round     int               `json:"round"`
	Recruited map[string]bool   `json:"recruited,omitempty"` // "player/army" this cycle
	Holder    map[string]string `json:"holder"`              // terrain die: player
	Terrain   TerrainPool       `json:"terrain"`
	// Natives is the campaign's additions to the native terrain table,
	// one spelling per race.
	Natives map[string]string `json:"natives,omitempty"`
	// Races lists, sorted, the races beyond the text's table and the
	// campaign's natives that the natives of an army gave in a recorded
	// recruit: races the campaign knows from then on (see races.go).
	Races  []string `json:"races,omitempty"`
	Winner string   `json:"winner,omitempty"`
	// Warnings lists the events older versions recorded that the rules
	// now refuse, replayed as recorded (see Replay).
	Warnings []string `json:"warnings,omitempty"`
	// rawNatives is the setup's natives as recorded, for replaying the
	// recruits of older versions.
	rawNatives map[string]string
}

// Completed is the number of turns every player has completed.
func (s State) Completed() int { return s.Round - 1 }

// Held returns the number of terrain dice player holds.
func (s State) Held(player string) int {
	n := 0
	for _, p := range s.Holder {
		if p == player {
			n++
		}
	}
	return n
}

// Apply returns the state after e and the effects of e, or an error that
// leaves s as it was. It is for recording a new event: every rule applies.
func (s State) Apply(e Event) (State, []Effect, error) {
	return s.apply(e, false)
}

// Replay is Apply for an event already recorded, possibly by an older
// version: an event refused only by a rule added since (see legacy.go) is
// applied as that version applied it, with a warning in Warnings, so that
// a campaign recorded then still reads.
func (s State) Replay(e Event) (State, []Effect, error) {
	return s.apply(e, true)
}

func (s State) apply(e Event, lax bool) (State, []Effect, error) {
	if e.Kind != KindSetup && len(s.Players) == 0 {
		return s, nil, fmt.Errorf("%s: the campaign has no setup event yet", e.Kind)
	}
	if e.Kind != KindSetup && e.Player != "" && !slices.Contains(s.Players, e.Player) {
		return s, nil, fmt.Errorf("%s: unknown player %q (players: %s)", e.Kind, e.Player, strings.Join(s.Players, ", "))
	}
	n := s.clone()
	var eff []Effect
	var err error
	switch e.Kind {
	case KindSetup:
		eff, err = n.setup(e, lax)
	case KindOrder:
		err = n.order(e, lax)
	case KindCapture:
		eff, err = n.capture(e, lax)
	case KindExpand:
		n.Terrain, err = n.Terrain.Draw(e.Terrain)
	case KindRecruit:
		eff, err = n.recruit(e, lax)
	case KindDeath:
		eff, err = n.death(e, lax)
	case KindEndRound:
		n.Round++
		if RecruitingDue(n.Completed()) {
			n.Recruited = map[string]bool{}
		}
	default:
		err = fmt.Errorf("unknown event kind %q", e.Kind)
	}
	if err != nil {
		return s, nil, err
	}
	return n, eff, nil
}

func (s State) clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	c.Order = slices.Clone(s.Order)
	c.Pool = maps.Clone(s.Pool)
	c.Recruited = maps.Clone(s.Recruited)
	c.Holder = maps.Clone(s.Holder)
	c.Natives = maps.Clone(s.Natives)
	c.Races = slices.Clone(s.Races)
	c.Warnings = slices.Clone(s.Warnings)
	c.Terrain = TerrainPool{InPool: slices.Clone(s.Terrain.InPool), InPlay: slices.Clone(s.Terrain.InPlay)}
	return c
}

func (s *State) setup(e Event, lax bool) ([]Effect, error) {
	if len(s.Players) > 0 {
		return nil, fmt.Errorf("setup: the campaign is already set up")
	}
	if len(e.Players) < 2 {
		return nil, fmt.Errorf("setup: a campaign needs at least 2 players, got %d", len(e.Players))
	}
	size, err := SizeFor(e.TotalHealth)
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	if _, err := nativeEntries(e.Natives); err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	natives, err := normalNatives(e.Natives)
	if err != nil {
		if err := s.relax(lax, e, fmt.Errorf("setup: %w", err)); err != nil {
			return nil, err
		}
		natives = validNatives(e.Natives)
	}
	names := e.Terrains
	if len(names) == 0 {
		for i := 1; i <= size.TerrainTotal; i++ {
			names = append(names, fmt.Sprintf("T%d", i))
		}
	}
	if len(names) != size.TerrainTotal {
		return nil, fmt.Errorf("setup: %d health per player plays with %d terrain dice, got %d", size.TotalHealth, size.TerrainTotal, len(names))
	}
	pool, err := NewTerrainPool(names)
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	seen := map[string]bool{}
	s.Pool = map[string]Health{}
	var eff []Effect
	for _, p := range e.Players {
		if p == "" || seen[p] {
			return nil, fmt.Errorf("setup: player names must be unique and not empty, got %q", p)
		}
		if p != strings.TrimSpace(p) {
			if err := s.relax(lax, e, fmt.Errorf("setup: player name %q is blank or begins or ends with spaces", p)); err != nil {
				return nil, err
			}
		}
		seen[p] = true
		s.Pool[p] = size.InPool
		eff = append(eff, Effect{Player: p, Resource: "pool", Delta: int(size.InPool), Source: "recruiting pool"})
	}
	s.Size, s.Players, s.Round, s.Terrain = size, slices.Clone(e.Players), 1, pool
	s.Holder, s.Recruited, s.Natives, s.rawNatives = map[string]string{}, map[string]bool{}, natives, maps.Clone(e.Natives)
	return eff, nil
}

func (s *State) order(e Event, lax bool) error {
	for p := range e.Maneuvers {
		if !slices.Contains(s.Players, p) {
			return fmt.Errorf("order: unknown player %q", p)
		}
	}
	if len(e.Maneuvers) != len(s.Players) {
		return fmt.Errorf("order: give the Horde maneuver total of all %d players, got %d", len(s.Players), len(e.Maneuvers))
	}
	if err := CheckManeuvers(e.Maneuvers, e.Rerolls); err != nil {
		if err := s.relax(lax, e, fmt.Errorf("order: %w", err)); err != nil {
			return err
		}
	}
	order, ties, err := seatPlayers(e.Maneuvers, e.Rerolls)
	if err != nil {
		return fmt.Errorf("order: %w", err)
	}
	if len(ties) > 0 {
		return fmt.Errorf("order: %v tie and roll their Horde armies again", ties)
	}
	s.Order = order
	return nil
}

func (s *State) capture(e Event, lax bool) ([]Effect, error) {
	if e.Player == "" {
		if err := s.relax(lax, e, fmt.Errorf("capture: give the player who captures %s", e.Terrain)); err != nil {
			return nil, err
		}
	}
	if !slices.Contains(s.Terrain.InPlay, e.Terrain) {
		return nil, fmt.Errorf("capture: terrain %q is not in play (in play: %v)", e.Terrain, s.Terrain.InPlay)
	}
	prev := s.Holder[e.Terrain]
	if prev == e.Player {
		return nil, fmt.Errorf("capture: %s already holds %s", e.Player, e.Terrain)
	}
	s.Holder[e.Terrain] = e.Player
	eff := []Effect{{Player: e.Player, Resource: "terrain", Delta: 1, Source: "capture " + e.Terrain}}
	if prev != "" {
		eff = append(eff, Effect{Player: prev, Resource: "terrain", Delta: -1, Source: "lost " + e.Terrain})
	}
	if s.Winner == "" && Won(s.Held(e.Player), s.Size.TerrainTotal) {
		s.Winner = e.Player
	}
	return eff, nil
}

func (s *State) recruit(e Event, lax bool) ([]Effect, error) {
	if e.Player == "" {
		if err := s.relax(lax, e, fmt.Errorf("recruit: give the player whose army recruits")); err != nil {
			return nil, err
		}
	}
	if !RecruitingDue(s.Completed()) {
		return nil, fmt.Errorf("recruit: recruiting takes place after every %dth turn; %d turns completed, next at %d", RecruitEvery, s.Completed(), NextRecruiting(s.Completed()+1))
	}
	if e.Forces == nil || e.Spend == nil || e.ArmyName == "" {
		return nil, fmt.Errorf("recruit: give the army's name, its forces and the spend")
	}
	key := e.Player + "/" + e.ArmyName
	if s.Recruited[key] {
		return nil, fmt.Errorf("recruit: army %s of %s has already recruited in this cycle", e.ArmyName, e.Player)
	}
	if as, ok := s.recruitedAs(e.Player, e.ArmyName); ok {
		// Older versions told armies apart by their exact names: a
		// campaign they recorded may hold "horde" and "Horde" in a cycle.
		err := fmt.Errorf("recruit: army %s of %s has already recruited in this cycle (as %s)", e.ArmyName, e.Player, as)
		if err := s.relax(lax, e, err); err != nil {
			return nil, err
		}
	}
	if err := s.checkRecruit(*e.Forces, *e.Spend); err != nil {
		if !lax || s.checkLegacyRecruit(*e.Forces, *e.Spend) != nil {
			return nil, err
		}
		_ = s.relax(lax, e, err) // replaying: a warning, never an error
	}
	total := e.Spend.Total()
	if total > s.Pool[e.Player] {
		return nil, fmt.Errorf("recruit: %s recruits %d health but has %d in the recruiting pool", e.Player, total, s.Pool[e.Player])
	}
	s.Pool[e.Player] -= total
	s.Recruited[key] = true
	s.learnRaces(e.Forces.Natives)
	return recruitEffects(e.Player, e.ArmyName, *e.Spend), nil
}

// recruitedAs returns the spelling under which an army of player has
// recruited in this cycle, when it has: army names are compared in lower
// case with single spaces, so that "Horde" and "horde " are one army, which
// recruits once a cycle ("Recruiting points may not be saved for future
// rounds of recruiting"). Keys are read in order, so that a replay warns
// alike every time.
func (s *State) recruitedAs(player, army string) (string, bool) {
	for _, k := range slices.Sorted(maps.Keys(s.Recruited)) {
		if as, ok := strings.CutPrefix(k, player+"/"); ok && normalArmy(as) == normalArmy(army) {
			return as, true
		}
	}
	return "", false
}

func normalArmy(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(name)), " ")
}

func recruitEffects(player, army string, sp Spend) []Effect {
	src := "recruited by army " + army
	var eff []Effect
	for _, r := range slices.Sorted(maps.Keys(sp.Own)) {
		if h := sp.Own[r]; h > 0 {
			eff = append(eff, Effect{player, "pool", -int(h), src}, Effect{player, "health:" + string(NormalRace(r)), int(h), src})
		}
	}
	for _, c := range sp.Converted {
		if c.Health == 0 {
			continue
		}
		res := "items"
		if !c.Items {
			res = "health:" + string(NormalRace(c.Race))
		}
		eff = append(eff, Effect{player, "pool", -int(c.Health), src + " (half rate)"}, Effect{player, res, int(c.Health), src + " (half rate)"})
	}
	return eff
}

// checkRecruit checks that an army's spend fits its recruiting points,
// the army's natives adding to the campaign's, and that the races it
// names are known to the campaign (races.go).
func (s *State) checkRecruit(forces Army, spend Spend) error {
	table, err := DefaultNatives().With(s.Natives)
	if err != nil {
		return fmt.Errorf("recruit: campaign natives: %w", err)
	}
	points, err := pointsWith(forces, table)
	if err != nil {
		return fmt.Errorf("recruit: %w", err)
	}
	if err := checkSpendRaces(s.knownRaces(forces.Natives), spend); err != nil {
		return err
	}
	return CheckSpend(points, spend)
}

// checkLegacyRecruit is checkRecruit as older versions checked a recruit.
func (s *State) checkLegacyRecruit(forces Army, spend Spend) error {
	points, err := legacyPoints(forces, s.rawNatives)
	if err != nil {
		return fmt.Errorf("recruit: %w", err)
	}
	return checkSpend(points, spend, false)
}

// death records units killed. Their race must be one the campaign knows
// (races.go): a misspelt race would start a new "health:" counter.
func (s *State) death(e Event, lax bool) ([]Effect, error) {
	if e.Player == "" {
		return nil, fmt.Errorf("death: give the player whose units were killed")
	}
	if e.Health <= 0 || e.Race == "" {
		return nil, fmt.Errorf("death: give the race and the health (> 0) of the units killed")
	}
	if err := s.knownRaces(nil).check("death", NormalRace(e.Race)); err != nil {
		if err := s.relax(lax, e, err); err != nil {
			return nil, err
		}
	}
	return []Effect{{e.Player, "health:" + string(NormalRace(e.Race)), -int(e.Health), "killed"}}, nil
}
