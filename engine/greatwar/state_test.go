package greatwar

import (
	"strings"
	"testing"
)

func apply(t *testing.T, s State, e Event) (State, []Effect) {
	t.Helper()
	n, eff, err := s.Apply(e)
	if err != nil {
		t.Fatalf("%s: %v", e.Kind, err)
	}
	return n, eff
}

func mustFail(t *testing.T, s State, e Event, want string) {
	t.Helper()
	_, _, err := s.Apply(e)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s %+v: got error %v, want one containing %q", e.Kind, e, err, want)
	}
}

// newCampaign is a campaign of the current rules: kate (Knights, with
// her unique Standard Bearer), eli (Elves), oscar (Orcs) 10 gold each, ned
// (Undead) 3.
func newCampaign(t *testing.T) State {
	s, _ := apply(t, State{}, Event{Kind: KindSetup, RulesVersion: CurrentRules, Options: &Options{BattleForTheBones: true}, Players: []PlayerSetup{
		{Name: "kate", Faction: "knights", Gold: 10, Army: []Item{{Name: "Standard Bearer", Cost: 10, Faction: "knights", Unique: true}}},
		{Name: "eli", Faction: "elves", Gold: 10},
		{Name: "oscar", Faction: "orcs", Gold: 10},
		{Name: "ned", Faction: "undead", Gold: 3},
	}})
	return s
}

func TestSetupEvent(t *testing.T) {
	s := newCampaign(t)
	if s.Units["ned"]["Undead Horde"] != 2 || s.Units["ned"]["Skeleton Archers"] != 2 {
		t.Errorf("the Undead player's free units: got %v, want 2 Undead Horde and 2 Skeleton Archers (source)", s.Units["ned"])
	}
	mustFail(t, State{}, Event{Kind: KindSetup, Players: []PlayerSetup{{Name: "a", Faction: "elves"}, {Name: "b", Faction: "dwarves"}}}, "as many good")
	mustFail(t, State{}, Event{Kind: KindSetup, Players: []PlayerSetup{{Name: "a", Faction: "gnomes"}}}, "unknown faction")
	mustFail(t, State{}, Event{Kind: KindSetup, Players: []PlayerSetup{{Name: "a", Faction: "elves", Army: []Item{{Name: "Deepwood Warriors", Cost: 151, Faction: "elves"}}}, {Name: "b", Faction: "orcs"}}}, "150")
	mustFail(t, s, Event{Kind: KindSetup}, "already")
}

func TestPurchases(t *testing.T) {
	s := newCampaign(t)
	buy := func(p string, items ...Item) Event {
		return Event{Kind: KindPurchase, Orders: []Order{{Player: p, Items: items}}}
	}
	s2, _ := apply(t, s, buy("kate", Item{Name: "Swordsmen", Cost: 4, Faction: "knights"}, Item{Name: "Fireball", Cost: 3, Spell: true}))
	if s2.Gold["kate"] != 3 || s2.Units["kate"]["Swordsmen"] != 1 {
		t.Errorf("after buying for 7: got %d gold, units %v", s2.Gold["kate"], s2.Units["kate"])
	}
	mustFail(t, s, buy("kate", Item{Name: "Swordsmen", Cost: 11, Faction: "knights"}), "holds 10")
	mustFail(t, s, buy("kate", Item{Name: "Standard Bearer", Cost: 1, Faction: "knights", Unique: true}), "already in the game")
	mustFail(t, s, buy("kate", Item{Name: "A", Cost: 1, Spell: true}, Item{Name: "B", Cost: 1, Spell: true}), "1 spell per turn")
	mustFail(t, s2, buy("kate", Item{Name: "B", Cost: 1, Spell: true}), "1 spell per turn")
	mustFail(t, s, buy("kate", Item{Name: "Depletion", Cost: 1, Spell: true}), "banned")
	mustFail(t, s, buy("oscar", Item{Name: "Oboros Rex", Cost: 5, Unique: true}), "good alignment")
	mustFail(t, s, buy("kate", Item{Name: "Grugs", Cost: 2, Faction: "orcs"}), "mixed armies")
	mustFail(t, s, buy("kate", Item{Name: "Familiar", Cost: 2}, Item{Name: "Familiar", Cost: 2}), "allowed 1")
	if _, _, err := s.Apply(buy("kate", Item{Name: "Dark Drakes", Cost: 5, Faction: "dragons"})); err != nil {
		t.Errorf("Dark Drakes are factionless for the good: %v", err)
	}
	mustFail(t, s, buy("oscar", Item{Name: "Dark Drakes", Cost: 5, Faction: "dragons"}), "mixed armies")
	cat := Item{Name: "Catapult", Cost: 1, Faction: "knights"}
	mustFail(t, s, buy("kate", cat, cat, cat), "2 Catapults")
	done, _ := apply(t, s, Event{Kind: KindIncome, Sources: []Source{{Player: "kate", Source: "homeland", Gold: 1}}})
	mustFail(t, done, buy("kate", Item{Name: "Swordsmen", Cost: 1, Faction: "knights"}), "beginning of a turn")
}

// TestBiddingWar follows "If several players want to buy the same unique
// unit at the same time, all the money is taken away. The players may then
// start bidding for that unit. The bidding is increased in steps of 1
// Gold, and each bid is directly lost." (source).
func TestBiddingWar(t *testing.T) {
	s := newCampaign(t)
	ceryx := Item{Name: "Ceryx Jade", Cost: 6, Unique: true}
	s, _ = apply(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{ceryx}}, {Player: "eli", Items: []Item{ceryx}}}})
	if s.Gold["kate"] != 4 || s.Gold["eli"] != 4 || s.Units["kate"]["Ceryx Jade"]+s.Units["eli"]["Ceryx Jade"] != 0 {
		t.Fatalf("contested unique: got gold %v, units %v; want 4 each and nobody holding it", s.Gold, s.Units)
	}
	s, _ = apply(t, s, Event{Kind: KindBid, Unit: "Ceryx Jade", Bidders: []string{"kate", "eli"}})
	s, _ = apply(t, s, Event{Kind: KindBid, Unit: "ceryx jade", Bidders: []string{"kate", "eli"}})
	won, _ := apply(t, s, Event{Kind: KindBid, Unit: "Ceryx Jade", Bidders: []string{"eli"}})
	if won.Gold["eli"] != 1 || won.Gold["kate"] != 2 || won.Units["eli"]["Ceryx Jade"] != 1 {
		t.Errorf("eli the last bidder: got gold %v units %v; want eli 1 gold with Ceryx Jade, kate 2", won.Gold, won.Units["eli"])
	}
	draw, _ := apply(t, s, Event{Kind: KindBid, Unit: "Ceryx Jade"})
	if len(draw.Biddings) != 0 || draw.Units["eli"]["Ceryx Jade"]+draw.Units["kate"]["Ceryx Jade"] != 0 {
		t.Errorf("a draw: got biddings %v; want nobody gaining the unit", draw.Biddings)
	}
	mustFail(t, won, Event{Kind: KindBid, Unit: "Ceryx Jade", Bidders: []string{"eli"}}, "no bidding war")
	mustFail(t, s, Event{Kind: KindBid, Unit: "Ceryx Jade", Bidders: []string{"oscar"}}, "not (or no longer)")
}

func TestTransfersConquestAndIncome(t *testing.T) {
	s := newCampaign(t)
	s, _ = apply(t, s, Event{Kind: KindTransfer, Player: "kate", To: "eli", Gold: 4})
	if s.Gold["kate"] != 6 || s.Gold["eli"] != 14 {
		t.Errorf("transfer: got %v", s.Gold)
	}
	mustFail(t, s, Event{Kind: KindTransfer, Player: "kate", To: "oscar", Gold: 1}, "same alignment")
	mustFail(t, s, Event{Kind: KindTransfer, Player: "kate", To: "eli", Gold: 7}, "holds 6")
	s, eff := apply(t, s, Event{Kind: KindConquest, Homeland: "eli", By: "oscar"})
	if s.Gold["eli"] != 0 || s.Gold["oscar"] != 24 || len(eff) != 2 {
		t.Errorf("conquest: got %v, want the conqueror to get all 14 gold of eli", s.Gold)
	}
	mustFail(t, s, Event{Kind: KindConquest, Homeland: "eli", By: "ned"}, "already conquered")
	mustFail(t, s, Event{Kind: KindConquest, Homeland: "kate", By: "eli"}, "allies")
	mustFail(t, s, Event{Kind: KindIncome, Sources: []Source{{Player: "eli", Source: "homeland", Gold: 1}}}, "no income")
	mustFail(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "eli", Items: []Item{{Name: "Peasants", Faction: "elves"}}}}}, "may not produce")
	s, _ = apply(t, s, Event{Kind: KindIncome, Sources: []Source{{Player: "oscar", Source: "homeland", Gold: 2}}})
	mustFail(t, s, Event{Kind: KindIncome, Sources: []Source{{Player: "oscar", Source: "homeland", Gold: 2}}}, "already collected")
	s, _ = apply(t, s, Event{Kind: KindEndTurn})
	if s.Turn != 2 || s.Gold["oscar"] != 26 {
		t.Errorf("after end of turn: turn %d, oscar %d gold; want 2 and 26", s.Turn, s.Gold["oscar"])
	}
}

// TestResurrectionWithinThreeTurns: "a disk can only be revived during the
// 3 turns following its death" and "If a unique disk died, it may not be
// bought again" (source).
func TestResurrectionWithinThreeTurns(t *testing.T) {
	s := newCampaign(t)
	s, _ = apply(t, s, Event{Kind: KindDeath, Player: "kate", Unit: "Standard Bearer"})
	mustFail(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{{Name: "Standard Bearer", Cost: 1, Faction: "knights", Unique: true}}}}}, "died")
	late := s
	for range 4 {
		late, _ = apply(t, late, Event{Kind: KindEndTurn})
	}
	mustFail(t, late, Event{Kind: KindResurrect, Player: "kate", Unit: "Standard Bearer"}, "3 turns")
	ok := s
	for range 3 {
		ok, _ = apply(t, ok, Event{Kind: KindEndTurn})
	}
	ok, _ = apply(t, ok, Event{Kind: KindResurrect, Player: "kate", Unit: "Standard Bearer"})
	if ok.Units["kate"]["Standard Bearer"] != 1 {
		t.Errorf("resurrected in the 3rd turn after death: got units %v", ok.Units["kate"])
	}
}

func TestFamiliarRuinsAndBones(t *testing.T) {
	s := newCampaign(t)
	mustFail(t, s, Event{Kind: KindRecharge, Player: "kate"}, "no Familiar")
	s, _ = apply(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{{Name: "Familiar", Cost: 2}}}}})
	s, _ = apply(t, s, Event{Kind: KindRecharge, Player: "kate"})
	if s.Gold["kate"] != 10-2-FamiliarRecharge {
		t.Errorf("Familiar recharge for 5 gold: got %d gold, want 3", s.Gold["kate"])
	}
	mustFail(t, s, Event{Kind: KindRecharge, Player: "kate"}, "needs 5 gold")
	s, _ = apply(t, s, Event{Kind: KindRuins, Player: "kate"})
	mustFail(t, s, Event{Kind: KindRuins, Player: "kate"}, "already")
	s, _ = apply(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{{Name: "Standard Bearer", Cost: 1, Faction: "knights", Unique: true}}}}})
	mustFail(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{{Name: "Standard Bearer", Cost: 1, Faction: "knights", Unique: true}}}}}, "already in the game")
	g, _ := apply(t, s, Event{Kind: KindBones, Alignment: "good"})
	if g.Gold["eli"] != 20 || g.Gold["kate"] != s.Gold["kate"]+BonesGold || g.Gold["oscar"] != 10 {
		t.Errorf("Bones removed by the good: got %v, want +10 for every good faction", g.Gold)
	}
	mustFail(t, g, Event{Kind: KindBones, Alignment: "good"}, "already")
	e, _ := apply(t, s, Event{Kind: KindBones, Alignment: "evil", Player: "ned"})
	if e.Units["ned"]["Dragon Lich"] != 1 {
		t.Errorf("Bones raised by the evil: got %v", e.Units["ned"])
	}
}

func TestApplyLeavesTheStateUnchanged(t *testing.T) {
	s := newCampaign(t)
	before := s.Gold["kate"]
	_, _, _ = s.Apply(Event{Kind: KindTransfer, Player: "kate", To: "eli", Gold: 5})
	_, _, _ = s.Apply(Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{{Name: "Swordsmen", Cost: 4, Faction: "knights"}}}}})
	if s.Gold["kate"] != before || s.Units["kate"]["Swordsmen"] != 0 {
		t.Errorf("Apply changed its receiver: gold %d, units %v", s.Gold["kate"], s.Units["kate"])
	}
}
