package greatwar

import (
	"fmt"
	"slices"
)

// transfer: "Money can be transfered freely between players of the same
// alignment."
func (s *State) transfer(e Event) ([]Effect, error) {
	from, _ := s.Player(e.Player)
	to, ok := s.Player(e.To)
	switch {
	case !ok:
		return nil, fmt.Errorf("unknown player %q", e.To)
	case from.Alignment != to.Alignment:
		return nil, fmt.Errorf("%s (%s) may not give gold to %s (%s): only between players of the same alignment", from.Name, from.Alignment, to.Name, to.Alignment)
	case e.Gold <= 0:
		return nil, fmt.Errorf("transfer a positive amount of gold, got %d", e.Gold)
	case from.Name == to.Name:
		return nil, fmt.Errorf("%s transfers to himself", from.Name)
	}
	pay, err := s.pay(from.Name, e.Gold, "transfer to "+to.Name)
	if err != nil {
		return nil, err
	}
	if err := s.gain(to.Name, e.Gold); err != nil {
		return nil, err
	}
	return []Effect{pay, {to.Name, "gold", e.Gold, "transfer from " + from.Name}}, nil
}

// income collects the end-of-turn income, once per turn. "A player may not
// collect income if his homeland is conquered."
func (s *State) income(e Event) ([]Effect, error) {
	if s.IncomeTurn == s.Turn {
		return nil, fmt.Errorf("turn %d's income is already collected", s.Turn)
	}
	var eff []Effect
	for i, src := range e.Sources {
		if _, ok := s.Player(src.Player); !ok {
			return nil, fmt.Errorf("unknown player %q", src.Player)
		}
		// A player has several sources (his homeland, each terrain he
		// harvests), but each pays once: "no additional income is created
		// by multiple harvesters of the same player on the same terrain".
		if slices.ContainsFunc(e.Sources[:i], func(o Source) bool {
			return o.Player == src.Player && o.Source == src.Source && o.Terrain == src.Terrain
		}) {
			return nil, fmt.Errorf("%s's income from %s is listed twice", src.Player, incomeWhy(src))
		}
		if src.Gold < 0 {
			return nil, fmt.Errorf("negative income %d for %s", src.Gold, src.Player)
		}
		if q, lost := s.Conquered[src.Player]; lost && src.Gold > 0 {
			return nil, fmt.Errorf("%s lost his homeland to %s and collects no income", src.Player, q.By)
		}
		if err := s.gain(src.Player, src.Gold); err != nil {
			return nil, err
		}
		eff = append(eff, Effect{src.Player, "gold", src.Gold, incomeWhy(src)})
	}
	s.IncomeTurn = s.Turn
	return eff, nil
}

func incomeWhy(src Source) string {
	if src.Terrain != "" {
		return fmt.Sprintf("income: %s (%s)", src.Source, src.Terrain)
	}
	return "income: " + src.Source
}

// conquest: "The conqueror gets all Gold of the player whose Homeland he
// has conquered." The conqueror's team wins when no enemy homeland is
// left (checkVictory); the effects are the gold alone.
func (s *State) conquest(e Event) ([]Effect, error) {
	loser, ok := s.Player(e.Homeland)
	if !ok {
		return nil, fmt.Errorf("no homeland of %q", e.Homeland)
	}
	by, ok := s.Player(e.By)
	if !ok {
		return nil, fmt.Errorf("unknown conqueror %q", e.By)
	}
	if by.Alignment == loser.Alignment {
		return nil, fmt.Errorf("%s and %s are allies: only an enemy conquers a homeland", by.Name, loser.Name)
	}
	if q, done := s.Conquered[loser.Name]; done {
		return nil, fmt.Errorf("the homeland of %s was already conquered by %s in turn %d", loser.Name, q.By, q.Turn)
	}
	s.Conquered[loser.Name] = Conquest{By: by.Name, ByFaction: by.Faction, Turn: s.Turn}
	s.checkVictory(by.Alignment)
	g := s.Gold[loser.Name]
	if err := s.gain(by.Name, g); err != nil {
		return nil, err
	}
	s.Gold[loser.Name] = 0
	return []Effect{
		{loser.Name, "gold", -g, "homeland conquered by " + by.Name},
		{by.Name, "gold", g, "conquered the homeland of " + loser.Name},
	}, nil
}

func (s *State) damage(e Event) ([]Effect, error) {
	return s.mark(e, s.Damage, "damage")
}

func (s *State) wound(e Event) ([]Effect, error) {
	return s.mark(e, s.Wounds, "wounds")
}

func (s *State) mark(e Event, m map[string]int, what string) ([]Effect, error) {
	switch {
	case e.Player == "":
		return nil, fmt.Errorf("give the player whose unit takes the %s", what)
	case e.Unit == "" || e.Amount <= 0:
		return nil, fmt.Errorf("give the unit and a positive amount of %s", what)
	}
	unit := s.unitName(e.Player, e.Unit)
	if s.Units[e.Player][unit] == 0 {
		return nil, fmt.Errorf("%s has no %q in play", e.Player, e.Unit)
	}
	k := e.Player + "/" + unit
	n, err := addInt(m[k], e.Amount)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", what, unit, err)
	}
	m[k] = n
	return []Effect{{e.Player, what + ":" + unit, e.Amount, what}}, nil
}

// heal removes a wound at the Acolytes' homeland: "disks of good aligned
// players touching their homeland are allowed to heal 1 Wound per turn".
// So the campaign must have an Acolytes player, the unit's player must be
// good, and each disk heals at most 1 wound in a turn. Wounds are kept
// per unit name, so the units of one name heal at most as many wounds in a
// turn as there are disks of that name. Whether the disk
// touches that homeland, with no evil disk there, is read from the table
// (HomelandAbilities), not from the ledger.
func (s *State) heal(e Event) ([]Effect, error) {
	unit := s.unitName(e.Player, e.Unit)
	k := e.Player + "/" + unit
	if e.Amount <= 0 || e.Amount > s.Wounds[k] {
		return nil, fmt.Errorf("%s has %d wounds, cannot heal %d", e.Unit, s.Wounds[k], e.Amount)
	}
	if !slices.ContainsFunc(s.Players, func(p Player) bool { return p.Faction == Disciples }) {
		return nil, fmt.Errorf("wounds heal only at the Acolytes' homeland, and no player of this campaign plays the Acolytes")
	}
	if p, _ := s.Player(e.Player); p.Alignment != Good {
		return nil, fmt.Errorf("only disks of good aligned players heal at the Acolytes' homeland; %s is %s", p.Name, p.Alignment)
	}
	disks := s.Units[e.Player][unit]
	if e.Amount > disks-s.Healed[k] {
		return nil, fmt.Errorf("%s's %d %s may heal 1 wound each per turn at the Acolytes' homeland: %d healed in turn %d already, %d more asked", e.Player, disks, e.Unit, s.Healed[k], s.Turn, e.Amount)
	}
	s.Healed[k] += e.Amount
	s.Wounds[k] -= e.Amount
	return []Effect{{e.Player, "wounds:" + unit, -e.Amount, "healed"}}, nil
}

// death removes one disk of a unit; a unique disk is marked dead with the
// turn. Wounds and damage are kept per unit name, not per disk: from
// Rules1 on they stay with the disks of that name still in play and are
// cleared, each with its effect, when the last one dies. The original
// rules cleared them at any death and recorded only the unit.
func (s *State) death(e Event) ([]Effect, error) {
	unit := s.unitName(e.Player, e.Unit)
	if s.Units[e.Player][unit] == 0 {
		return nil, fmt.Errorf("%s has no %q in play", e.Player, e.Unit)
	}
	k := e.Player + "/" + unit
	n := NormalName(unit)
	if u, ok := s.Uniques[n]; ok {
		u.Dead, u.DiedTurn = true, s.Turn
		s.Uniques[n] = u
	}
	eff := []Effect{s.addUnit(e.Player, unit, -1, "killed")}
	if !s.since(Rules1) {
		delete(s.Wounds, k)
		delete(s.Damage, k)
		return eff, nil
	}
	if s.Units[e.Player][unit] > 0 {
		return eff, nil
	}
	for _, m := range []struct {
		what  string
		marks map[string]int
	}{{"wounds", s.Wounds}, {"damage", s.Damage}} {
		if v := m.marks[k]; v != 0 {
			eff = append(eff, Effect{e.Player, m.what + ":" + unit, -v, "killed"})
		}
		delete(m.marks, k)
	}
	delete(s.Healed, k)
	return eff, nil
}

// resurrect: "The Resurrection spell is the only possibility to get a dead
// unique disk back into the game. However, a disk can only be revived
// during the 3 turns following its death."
func (s *State) resurrect(e Event) ([]Effect, error) {
	n := NormalName(e.Unit)
	u, ok := s.Uniques[n]
	switch {
	case !ok || !u.Dead:
		return nil, fmt.Errorf("%s is not a dead unique disk", e.Unit)
	case s.Turn-u.DiedTurn > ResurrectionTurns:
		return nil, fmt.Errorf("%s died in turn %d: Resurrection works only during the %d turns following its death (now turn %d)", e.Unit, u.DiedTurn, ResurrectionTurns, s.Turn)
	}
	if s.since(Rules1) {
		if err := s.checkResurrect(e, u); err != nil {
			return nil, err
		}
	}
	s.Uniques[n] = Unique{Owner: e.Player, Faction: u.Faction}
	return []Effect{s.addUnit(e.Player, e.Unit, 1, "resurrected")}, nil
}

// checkResurrect checks who gets a dead unique back (from Rules1 on): a
// player must be named, the one who owned the disk when the state knows
// him, and the disk must fit his army ("Players are not allowed to have
// 'mixed armies'").
func (s *State) checkResurrect(e Event, u Unique) error {
	p, ok := s.Player(e.Player)
	switch {
	case !ok:
		return fmt.Errorf("give the player who gets %s back (players: %v)", e.Unit, s.names())
	case u.Owner != "" && u.Owner != p.Name:
		return fmt.Errorf("%s was %s's disk: Resurrection brings it back to %s, not to %s", e.Unit, u.Owner, u.Owner, p.Name)
	}
	return CheckArmyRule(p, Item{Name: e.Unit, Faction: u.Faction})
}

// recharge: the Familiar "can only be recharged at the owner's faction
// homeland for 5 Gold".
func (s *State) recharge(e Event) ([]Effect, error) {
	// Every version counts a Familiar held as "Familiars": accepting a
	// recharge once refused changes no event already recorded.
	if s.countAs(e.Player, Familiar, true) == 0 {
		return nil, fmt.Errorf("%s has no Familiar", e.Player)
	}
	if q, lost := s.Conquered[e.Player]; lost {
		return nil, fmt.Errorf("the homeland of %s is conquered by %s: the Familiar cannot be recharged there", e.Player, q.By)
	}
	pay, err := s.pay(e.Player, FamiliarRecharge, "Familiar recharge")
	if err != nil {
		return nil, err
	}
	return []Effect{pay}, nil
}

// ruins: "the Knights player may once exchange a Standard Bearer against a
// Ruins-terrain".
func (s *State) ruins(e Event) ([]Effect, error) {
	p, _ := s.Player(e.Player)
	switch {
	case p.Faction != Knights:
		return nil, fmt.Errorf("only the Knights player exchanges a Standard Bearer for Ruins")
	case s.RuinsPlaced:
		return nil, fmt.Errorf("the Knights have already exchanged a Standard Bearer for Ruins")
	}
	// From Rules1 on a player holds one spelling of a name; a campaign of
	// the original rules may hold two ("Standard Bearer", "standard
	// bearer"), and the first in sorted order goes, so that every replay
	// records the same effect.
	names := s.spellings(p.Name, StandardBearer)
	if len(names) == 0 {
		return nil, fmt.Errorf("%s has no Standard Bearer in play", p.Name)
	}
	s.RuinsPlaced = true
	return []Effect{s.addUnit(p.Name, names[0], -1, "exchanged for Ruins")}, nil
}

// BonesGold is what every good faction receives when the Bones are
// removed from play.
const BonesGold = 10

// bones ends the Battle for the Bones: brought to a good homeland, "Every
// good faction receives 10 Gold"; to an evil one, the Bones become a
// Dragon Lich "controlled by the player owning the Spellcaster".
func (s *State) bones(e Event) ([]Effect, error) {
	if !s.Options.BattleForTheBones {
		return nil, fmt.Errorf("the Battle for the Bones option is not in play")
	}
	if s.BonesDone {
		return nil, fmt.Errorf("the Bones are already out of play")
	}
	a, err := ParseAlignment(e.Alignment)
	if err != nil {
		return nil, err
	}
	s.BonesDone = true
	if a == Evil {
		p, ok := s.Player(e.Player)
		if !ok || p.Alignment != Evil {
			return nil, fmt.Errorf("give the evil player whose Level III spellcaster raised the Dragon Lich")
		}
		return []Effect{s.addUnit(p.Name, "Dragon Lich", 1, "Bones raised")}, nil
	}
	var eff []Effect
	for _, p := range s.Players {
		if p.Alignment == Good {
			if err := s.gain(p.Name, BonesGold); err != nil {
				return nil, err
			}
			eff = append(eff, Effect{p.Name, "gold", BonesGold, "Bones removed from play"})
		}
	}
	return eff, nil
}
