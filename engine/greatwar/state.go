package greatwar

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Event kinds of a Great War campaign.
const (
	KindSetup     = "setup"     // players, starting armies, options
	KindOrder     = "order"     // the playing order drawn for the turn
	KindPurchase  = "purchase"  // the secret buys of the turn, revealed together
	KindBid       = "bid"       // one round of a bidding war
	KindTransfer  = "transfer"  // gold between allies
	KindIncome    = "income"    // the income at the end of the turn
	KindConquest  = "conquest"  // a homeland conquered
	KindDamage    = "damage"    // damage on a unit
	KindWound     = "wound"     // wounds on a unit
	KindHeal      = "heal"      // wounds healed (the Acolytes' homeland)
	KindDeath     = "death"     // a unit killed
	KindResurrect = "resurrect" // a dead unique revived by Resurrection
	KindRecharge  = "recharge"  // the Familiar recharged at the homeland
	KindRuins     = "ruins"     // the Knights exchange a Standard Bearer for Ruins
	KindBones     = "bones"     // the Battle for the Bones decided
	KindEndTurn   = "end-turn"
)

// PlayerSetup is one player of the setup event.
type PlayerSetup struct {
	Name      string `json:"name"`
	Faction   string `json:"faction"`
	Alignment string `json:"alignment,omitempty"`
	Gold      int    `json:"gold,omitempty"`
	Army      []Item `json:"army,omitempty"`
}

// Options are the campaign's optional rules.
type Options struct {
	BattleForTheBones bool     `json:"battle_for_the_bones,omitempty"`
	Harvesters        []string `json:"harvesters,omitempty"`
}

// Order is one player's secret buys for the turn.
type Order struct {
	Player string `json:"player"`
	Items  []Item `json:"items"`
}

// Event is one change to a Great War campaign. Only the fields of its
// kind are used.
type Event struct {
	Kind      string        `json:"kind"`
	Player    string        `json:"player,omitempty"`
	Players   []PlayerSetup `json:"players,omitempty"`
	Options   *Options      `json:"options,omitempty"`
	Order     []string      `json:"order,omitempty"`
	Orders    []Order       `json:"orders,omitempty"`
	Sources   []Source      `json:"sources,omitempty"`
	Unit      string        `json:"unit,omitempty"`
	Unique    bool          `json:"unique,omitempty"`
	Bidders   []string      `json:"bidders,omitempty"`
	To        string        `json:"to,omitempty"`
	Gold      int           `json:"gold,omitempty"`
	Amount    int           `json:"amount,omitempty"`
	Homeland  string        `json:"homeland,omitempty"`
	By        string        `json:"by,omitempty"`
	Alignment string        `json:"alignment,omitempty"`
	// RulesVersion (setup only) is the version of the rules the campaign
	// is played under; none is RulesOriginal. New campaigns name
	// CurrentRules.
	RulesVersion int `json:"rules_version,omitempty"`
}

// Effect is what an event changed for one player: Resource "gold", or
// "unit:<name>" (units in play), "wounds:<unit>", "damage:<unit>".
type Effect struct {
	Player   string `json:"player"`
	Resource string `json:"resource"`
	Delta    int    `json:"delta"`
	Source   string `json:"source"`
}

// Unique is the fate of a unique disk introduced into the game.
type Unique struct {
	Owner string `json:"owner"`
	// Faction is the disk's faction as its buyer gave it ("" for a
	// factionless disk), checked again when it is resurrected.
	Faction  string `json:"faction,omitempty"`
	Dead     bool   `json:"dead,omitempty"`
	DiedTurn int    `json:"died_turn,omitempty"`
}

// Bidding is a bidding war for a unique disk.
type Bidding struct {
	Unit string `json:"unit"`
	// Faction is the disk's faction as the last contesting order gave it.
	Faction string   `json:"faction,omitempty"`
	Active  []string `json:"active"`
	Rounds  int      `json:"rounds"`
}

// State is a Great War campaign between two events. It is a value: Apply
// returns a new State and never changes the one it is called on.
type State struct {
	Turn    int                       `json:"turn"`
	Players []Player                  `json:"players"`
	Options Options                   `json:"options"`
	Order   []string                  `json:"order,omitempty"`
	Gold    map[string]int            `json:"gold"`
	Units   map[string]map[string]int `json:"units"` // player: unit name: count in play
	Wounds  map[string]int            `json:"wounds,omitempty"`
	Damage  map[string]int            `json:"damage,omitempty"`
	// Healed counts the wounds each unit (player/unit) healed in this
	// turn; the end of the turn clears it.
	Healed    map[string]int      `json:"healed,omitempty"`
	Conquered map[string]Conquest `json:"conquered,omitempty"`
	Uniques   map[string]Unique   `json:"uniques,omitempty"`
	Biddings  map[string]Bidding  `json:"biddings,omitempty"`
	// SpellTurn is the last turn each player bought a spell.
	SpellTurn map[string]int `json:"spell_turn,omitempty"`
	// IncomeTurn is the last turn whose income was recorded.
	IncomeTurn     int  `json:"income_turn,omitempty"`
	RuinsPlaced    bool `json:"ruins_placed,omitempty"`
	BearerRebought bool `json:"bearer_rebought,omitempty"`
	BonesDone      bool `json:"bones_done,omitempty"`
	// RulesVersion is the version of the rules the campaign is played
	// under, from its setup event (see RulesOriginal).
	RulesVersion int `json:"rules_version,omitempty"`
	// Winner is the alignment that conquered every enemy homeland first
	// ("" while nobody has), in turn WonTurn (see victory.go).
	Winner  Alignment `json:"winner,omitempty"`
	WonTurn int       `json:"won_turn,omitempty"`
	// Warnings lists the items the campaign's rules version accepted
	// though a later version refuses them (see Rules2): kept, as
	// recorded, and said.
	Warnings []string `json:"warnings,omitempty"`
}

// Player returns the named player.
func (s State) Player(name string) (Player, bool) {
	i := slices.IndexFunc(s.Players, func(p Player) bool { return p.Name == name })
	if i < 0 {
		return Player{}, false
	}
	return s.Players[i], true
}

// Conquests returns the conquered homelands (for ComputeIncome).
func (s State) Conquests() map[string]Conquest { return maps.Clone(s.Conquered) }

// Apply returns the state after e and the effects of e, or an error that
// leaves s as it was.
func (s State) Apply(e Event) (State, []Effect, error) {
	if e.Kind != KindSetup && len(s.Players) == 0 {
		return s, nil, fmt.Errorf("%s: the campaign has no setup event yet", e.Kind)
	}
	if e.Player != "" && e.Kind != KindSetup {
		if _, ok := s.Player(e.Player); !ok {
			return s, nil, fmt.Errorf("%s: unknown player %q (players: %v)", e.Kind, e.Player, s.names())
		}
	}
	n := s.clone()
	h, ok := handlers[e.Kind]
	if !ok {
		return s, nil, fmt.Errorf("unknown event kind %q", e.Kind)
	}
	eff, err := h(&n, e)
	if err != nil {
		return s, nil, fmt.Errorf("%s: %w", e.Kind, err)
	}
	return n, eff, nil
}

var handlers map[string]func(*State, Event) ([]Effect, error)

func init() {
	handlers = map[string]func(*State, Event) ([]Effect, error){
		KindSetup: (*State).setup, KindOrder: (*State).order, KindPurchase: (*State).purchase,
		KindBid: (*State).bid, KindTransfer: (*State).transfer, KindIncome: (*State).income,
		KindConquest: (*State).conquest, KindDamage: (*State).damage, KindWound: (*State).wound,
		KindHeal: (*State).heal, KindDeath: (*State).death, KindResurrect: (*State).resurrect,
		KindRecharge: (*State).recharge, KindRuins: (*State).ruins, KindBones: (*State).bones,
		KindEndTurn: (*State).endTurn,
	}
}

func (s State) names() []string {
	out := make([]string, len(s.Players))
	for i, p := range s.Players {
		out[i] = p.Name
	}
	return out
}

func (s State) clone() State {
	c := s
	c.Players = slices.Clone(s.Players)
	c.Order = slices.Clone(s.Order)
	c.Warnings = slices.Clone(s.Warnings)
	c.Gold = maps.Clone(s.Gold)
	c.Units = make(map[string]map[string]int, len(s.Units))
	for p, u := range s.Units {
		c.Units[p] = maps.Clone(u)
	}
	c.Wounds, c.Damage = maps.Clone(s.Wounds), maps.Clone(s.Damage)
	c.Healed = maps.Clone(s.Healed)
	if c.Healed == nil {
		c.Healed = map[string]int{}
	}
	c.Conquered, c.Uniques = maps.Clone(s.Conquered), maps.Clone(s.Uniques)
	c.Biddings, c.SpellTurn = maps.Clone(s.Biddings), maps.Clone(s.SpellTurn)
	if c.Conquered == nil {
		c.Conquered = map[string]Conquest{}
	}
	if c.Uniques == nil {
		c.Uniques = map[string]Unique{}
	}
	if c.Biddings == nil {
		c.Biddings = map[string]Bidding{}
	}
	if c.SpellTurn == nil {
		c.SpellTurn = map[string]int{}
	}
	if c.Wounds == nil {
		c.Wounds = map[string]int{}
	}
	if c.Damage == nil {
		c.Damage = map[string]int{}
	}
	return c
}

// pay moves gold from a player, failing when he holds less.
func (s *State) pay(player string, gold int, why string) (Effect, error) {
	if gold < 0 {
		return Effect{}, fmt.Errorf("%s cannot pay a negative %d gold for %s", player, gold, why)
	}
	if gold > s.Gold[player] {
		return Effect{}, fmt.Errorf("%s needs %d gold for %s but holds %d", player, gold, why, s.Gold[player])
	}
	s.Gold[player] -= gold
	return Effect{player, "gold", -gold, why}, nil
}

// gain adds gold to a player, failing rather than wrapping his counter
// round to a negative balance.
func (s *State) gain(player string, gold int) error {
	g, err := addInt(s.Gold[player], gold)
	if err != nil {
		return fmt.Errorf("%s's gold: %w", player, err)
	}
	s.Gold[player] = g
	return nil
}

// addInt returns a+b, or an error when the sum does not fit an int.
func addInt(a, b int) (int, error) {
	if b > 0 && a > math.MaxInt-b || b < 0 && a < math.MinInt-b {
		return 0, fmt.Errorf("%d + %d is beyond what a counter holds", a, b)
	}
	return a + b, nil
}

// addUnit adds n units of a name to a player's army (n < 0 removes them).
// From Rules1 on, the units are kept under the spelling already in play.
func (s *State) addUnit(player, name string, n int, why string) Effect {
	name = s.unitName(player, name)
	if s.Units[player] == nil {
		s.Units[player] = map[string]int{}
	}
	s.Units[player][name] += n
	if s.Units[player][name] == 0 {
		delete(s.Units[player], name)
	}
	return Effect{player, "unit:" + name, n, why}
}

func (s *State) endTurn(Event) ([]Effect, error) {
	s.Turn++
	s.Order = nil
	s.Healed = nil
	return nil, nil
}

// order records the turn's playing order: "At the beginning of each new
// turn, number counters ... are randomly taken from a cup." From Rules1
// on, once a turn: a second draw would replace the first.
func (s *State) order(e Event) ([]Effect, error) {
	if s.since(Rules1) && s.Order != nil {
		return nil, fmt.Errorf("turn %d's playing order is already drawn (%v): undo that order event to draw again", s.Turn, s.Order)
	}
	got, want := slices.Sorted(slices.Values(e.Order)), slices.Sorted(slices.Values(s.names()))
	if !slices.Equal(got, want) {
		return nil, fmt.Errorf("the playing order must name every player once: got %v, players %v", e.Order, want)
	}
	s.Order = slices.Clone(e.Order)
	return nil, nil
}
