package greatwar

import (
	"fmt"
	"maps"
	"slices"
)

// checkNew checks that item may join p's army now: the army rules, the
// uniques ("only ... if these have not been introduced to the game before.
// If a unique disk died, it may not be bought again"), one Familiar per
// player and the Knights' 2 Catapults. Under a rules version before
// Rules2, an item that only the limits of Rules2 refuse (a plural of a
// limited unit's name) is accepted, with a warning in s.Warnings.
func (s *State) checkNew(p Player, it Item) error {
	if err := CheckArmyRule(p, it); err != nil {
		return err
	}
	it = s.knownUnique(it)
	var err error
	switch u := s.unitKey(it.Name); {
	case limits(p, u):
		err = s.checkLimit(p, u, s.since(Rules2))
	case it.Unique:
		err = s.checkUnique(p, NormalName(it.Name), it.Name)
	}
	if err == nil && !s.since(Rules2) {
		if u := UnitKey(it.Name, true); limits(p, u) {
			if lerr := s.checkLimit(p, u, true); lerr != nil {
				s.warn(p, it.Name, Rules2, lerr)
			}
		}
	}
	return err
}

// limits reports whether the text limits the number of units u (in
// UnitKey form) that player p may have.
func limits(p Player, u string) bool {
	return u == Familiar || u == Catapult && p.Faction == Knights
}

// checkLimit checks that p may have one more unit u (in UnitKey form) of
// a limited kind, counting the limited unit's plurals when plurals is
// true. Names are compared in their normal form, so "familiar" and
// "Familiar " are the one Familiar "each player is allowed".
func (s *State) checkLimit(p Player, u string, plurals bool) error {
	switch {
	case u == Familiar && s.countAs(p.Name, Familiar, plurals) > 0:
		return fmt.Errorf("%s already has a Familiar; each player is allowed 1", p.Name)
	case u == Catapult && p.Faction == Knights && s.countAs(p.Name, Catapult, plurals) >= MaxCatapults:
		return fmt.Errorf("the Knights may only have %d Catapults in play", MaxCatapults)
	}
	return nil
}

func (s *State) checkUnique(p Player, n, name string) error {
	u, seen := s.Uniques[n]
	switch {
	case !seen:
		return nil
	case n == StandardBearer && p.Faction == Knights && s.RuinsPlaced && !s.BearerRebought:
		return nil // "the Knights player may once acquire a new Standard Bearer"
	case u.Dead:
		return fmt.Errorf("the unique disk %s died in turn %d and may not be bought again", name, u.DiedTurn)
	}
	return fmt.Errorf("the unique disk %s is already in the game (%s)", name, u.Owner)
}

// knownUnique returns it marked unique when a disk of its name was
// already introduced as unique, whoever flagged it: "Players may only
// acquire unique Disks if these have not been introduced to the game
// before", and leaving out the flag must not make a second one.
//
// From Rules1 on, the Familiar is never unique, flagged or not: "no
// unique disk is be chosen more than once. Exception: Familiar" (each
// player may have one, checkNew).
//
// From Rules2 on, a Familiar under its plural ("Familiars") is one too.
func (s *State) knownUnique(it Item) Item {
	if s.since(Rules1) && s.unitKey(it.Name) == Familiar {
		it.Unique = false
		return it
	}
	if _, seen := s.Uniques[NormalName(it.Name)]; seen {
		it.Unique = true
	}
	return it
}

// markUniques returns the orders of a purchase with every item flagged
// unique whose name (in normal form) is flagged unique in any order: the
// buys are secret and revealed together, so one player's flag makes the
// disk unique for all ("If several players want to buy the same unique
// unit at the same time, all the money is taken away"), and an order that
// leaves the flag out takes part in the bidding war instead of owning a
// second one. The event's orders are not changed.
func markUniques(orders []Order) []Order {
	flagged := map[string]bool{}
	for _, o := range orders {
		for _, it := range o.Items {
			if it.Unique {
				flagged[NormalName(it.Name)] = true
			}
		}
	}
	out := make([]Order, len(orders))
	for i, o := range orders {
		out[i] = Order{Player: o.Player, Items: slices.Clone(o.Items)}
		for j, it := range out[i].Items {
			if flagged[NormalName(it.Name)] {
				out[i].Items[j].Unique = true
			}
		}
	}
	return out
}

// count returns how many units of a name (in unitKey form) a player has.
func (s *State) count(player, key string) int { return s.countAs(player, key, s.since(Rules2)) }

// countAs returns how many units of a name (in UnitKey form) a player
// has, counting the units held under a limited unit's plural when plurals
// is true.
func (s *State) countAs(player, key string, plurals bool) int {
	c := 0
	for name, k := range s.Units[player] {
		if UnitKey(name, plurals) == key {
			c += k
		}
	}
	return c
}

// introduce puts a new disk into p's army.
func (s *State) introduce(player string, it Item, why string) Effect {
	it = s.knownUnique(it)
	n := NormalName(it.Name)
	if it.Unique {
		if n == StandardBearer && s.RuinsPlaced {
			s.BearerRebought = true
		}
		s.Uniques[n] = Unique{Owner: player, Faction: it.Faction}
	}
	return s.addUnit(player, it.Name, 1, why)
}

// purchase reveals every player's secret buys at once. Each order must fit
// the player's gold and army; at most one spell per player per turn. A
// unique wanted by several players is bought by none: "all the money is
// taken away" (each pays its cost) and a bidding war starts.
func (s *State) purchase(e Event) ([]Effect, error) {
	if s.IncomeTurn == s.Turn {
		return nil, fmt.Errorf("purchases are made at the beginning of a turn; turn %d's income is already collected", s.Turn)
	}
	if s.since(Rules1) {
		e.Orders = markUniques(e.Orders)
	}
	wanted := map[string][]string{}
	ordered := map[string]bool{}
	for _, o := range e.Orders {
		// Each order is checked against the player's whole gold, so a
		// second order of the same player would be paid from gold the
		// first already spent.
		if ordered[o.Player] {
			return nil, fmt.Errorf("%s has two orders in one purchase: give all his items in one order", o.Player)
		}
		ordered[o.Player] = true
		if err := s.checkOrder(o); err != nil {
			return nil, err
		}
		for _, it := range o.Items {
			if s.knownUnique(it).Unique {
				wanted[NormalName(it.Name)] = append(wanted[NormalName(it.Name)], o.Player)
			}
		}
	}
	var eff []Effect
	for _, o := range e.Orders {
		for _, it := range o.Items {
			it = s.knownUnique(it)
			n := NormalName(it.Name)
			why := "bought " + it.Name
			contested := it.Unique && len(wanted[n]) > 1
			if contested {
				why = "lost on contested " + it.Name
			}
			pay, err := s.pay(o.Player, it.Cost, why)
			if err != nil {
				return nil, err
			}
			eff = append(eff, pay)
			if it.Spell {
				s.SpellTurn[o.Player] = s.Turn
			}
			if contested {
				s.Biddings[n] = Bidding{Unit: it.Name, Faction: it.Faction, Active: wanted[n]}
				continue
			}
			eff = append(eff, s.introduce(o.Player, it, why))
		}
	}
	return eff, nil
}

// checkOrder checks one player's order: his homeland stands, the items
// fit his army, one spell, the total within his gold.
func (s *State) checkOrder(o Order) error {
	p, ok := s.Player(o.Player)
	if !ok {
		return fmt.Errorf("unknown player %q", o.Player)
	}
	if q, lost := s.Conquered[p.Name]; lost {
		return fmt.Errorf("%s lost his homeland to %s and may not produce units", p.Name, q.By)
	}
	total, spells := 0, 0
	trial := s.clone()
	for _, it := range o.Items {
		if err := trial.checkNew(p, it); err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
		if _, bidding := s.Biddings[NormalName(it.Name)]; bidding {
			return fmt.Errorf("%s: %s is in a bidding war", p.Name, it.Name)
		}
		trial.introduce(p.Name, it, "")
		var err error
		if total, err = addInt(total, it.Cost); err != nil {
			return fmt.Errorf("%s: the order's total cost: %w", p.Name, err)
		}
		if it.Spell {
			spells++
		}
	}
	if spells > 1 || spells == 1 && s.SpellTurn[p.Name] == s.Turn {
		return fmt.Errorf("%s may only buy 1 spell per turn", p.Name)
	}
	if total > s.Gold[p.Name] {
		return fmt.Errorf("%s orders %d gold worth but holds %d", p.Name, total, s.Gold[p.Name])
	}
	s.Warnings = trial.Warnings // the order stands: keep what it warned of
	return nil
}

// bid plays one round of a bidding war: every player in Bidders raises by
// 1 gold, lost at once. The war ends when a round has at most one bidder:
// "Only if a player is the last player to bid on a unit, he may take it.
// If there is a draw in the end, nobody gains the unit." A player who does
// not bid in a round is out.
func (s *State) bid(e Event) ([]Effect, error) {
	n := NormalName(e.Unit)
	b, ok := s.Biddings[n]
	if !ok {
		return nil, fmt.Errorf("no bidding war for %q (open: %v)", e.Unit, slices.Sorted(maps.Keys(s.Biddings)))
	}
	var eff []Effect
	for i, p := range e.Bidders {
		if slices.Contains(e.Bidders[:i], p) {
			return nil, fmt.Errorf("%s is named twice among the bidders: each bids 1 gold per round", p)
		}
		if !slices.Contains(b.Active, p) {
			return nil, fmt.Errorf("%s is not (or no longer) bidding for %s", p, b.Unit)
		}
		// Winning the bid is acquiring a unit, which players who "have
		// lost their homeland ... may not" do ("may not produce any
		// units").
		if q, lost := s.Conquered[p]; lost {
			return nil, fmt.Errorf("%s lost his homeland to %s and may not produce units: he may not bid", p, q.By)
		}
		pay, err := s.pay(p, 1, "bid for "+b.Unit)
		if err != nil {
			return nil, err
		}
		eff = append(eff, pay)
	}
	b.Rounds++
	switch len(e.Bidders) {
	case 0:
		delete(s.Biddings, n)
	case 1:
		delete(s.Biddings, n)
		eff = append(eff, s.introduce(e.Bidders[0], Item{Name: b.Unit, Faction: b.Faction, Unique: true}, "won the bidding for "+b.Unit))
	default:
		b.Active = slices.Clone(e.Bidders)
		s.Biddings[n] = b
	}
	return eff, nil
}
