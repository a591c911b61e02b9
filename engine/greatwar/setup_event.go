package greatwar

import "fmt"

// setup records the rules version, the players, their starting armies
// (checked against the army rules: 150 points, one faction, uniques once)
// and the options.
// The Undead player gets his 2 free Undead Horde and 2 free Skeleton
// Archers.
func (s *State) setup(e Event) ([]Effect, error) {
	if len(s.Players) > 0 {
		return nil, fmt.Errorf("the campaign is already set up")
	}
	if err := s.setRules(e.RulesVersion); err != nil {
		return nil, err
	}
	s.Gold, s.Units, s.Turn = map[string]int{}, map[string]map[string]int{}, 1
	if e.Options != nil {
		s.Options = *e.Options
	}
	count := map[Alignment]int{}
	var eff []Effect
	for _, ps := range e.Players {
		p, err := NewPlayer(ps.Name, ps.Faction, ps.Alignment)
		if err != nil {
			return nil, err
		}
		if _, dup := s.Player(p.Name); dup {
			return nil, fmt.Errorf("player %s named twice", p.Name)
		}
		if ps.Gold < 0 {
			return nil, fmt.Errorf("player %s: negative starting gold", p.Name)
		}
		s.Players = append(s.Players, p)
		count[p.Alignment]++
		s.Gold[p.Name] = ps.Gold
		if ps.Gold > 0 {
			eff = append(eff, Effect{p.Name, "gold", ps.Gold, "starting gold"})
		}
		army, err := s.startingArmy(p, ps.Army)
		if err != nil {
			return nil, err
		}
		eff = append(eff, army...)
	}
	if count[Good] != count[Evil] || count[Good] == 0 {
		return nil, fmt.Errorf("as many good factions as evil ones are needed: %d good, %d evil", count[Good], count[Evil])
	}
	return eff, nil
}

func (s *State) startingArmy(p Player, army []Item) ([]Effect, error) {
	var eff []Effect
	points := 0
	for _, it := range army {
		if err := s.checkNew(p, it); err != nil {
			return nil, fmt.Errorf("starting army of %s: %w", p.Name, err)
		}
		sum, err := addInt(points, it.Cost)
		if err != nil {
			if s.since(Rules1) {
				return nil, fmt.Errorf("starting army of %s: its points: %w", p.Name, err)
			}
			sum = points + it.Cost // the original rules wrapped round: a stored setup replays as recorded
		}
		points = sum
		eff = append(eff, s.introduce(p.Name, it, "starting army"))
	}
	if points > StartingPoints {
		return nil, fmt.Errorf("starting army of %s is worth %d points, more than %d", p.Name, points, StartingPoints)
	}
	if p.Faction == Undead {
		eff = append(eff, s.addUnit(p.Name, "Undead Horde", 2, "free homeland guard"),
			s.addUnit(p.Name, "Skeleton Archers", 2, "free homeland guard"))
	}
	return eff, nil
}
