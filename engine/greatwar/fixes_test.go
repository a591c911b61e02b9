package greatwar

import (
	"slices"
	"testing"

	"tableref/models"
)

func buyEvent(p string, items ...Item) Event {
	return Event{Kind: KindPurchase, Orders: []Order{{Player: p, Items: items}}}
}

// TestOneFamiliarWhateverTheSpelling: "each player is allowed to have 1
// Familiar" (source), however the name is written.
func TestOneFamiliarWhateverTheSpelling(t *testing.T) {
	s := newCampaign(t)
	s, _ = apply(t, s, buyEvent("kate", Item{Name: "familiar", Cost: 1}))
	for _, name := range []string{"Familiar", " FAMILIAR ", "familiar"} {
		t.Run(name+" after familiar is refused", func(t *testing.T) {
			mustFail(t, s, buyEvent("kate", Item{Name: name, Cost: 1}), "allowed 1")
		})
	}
}

// TestAUniqueNameStaysUnique: "Players may only acquire unique Disks if
// these have not been introduced to the game before" (source), with or
// without the buyer's unique flag.
func TestAUniqueNameStaysUnique(t *testing.T) {
	s := newCampaign(t)
	s, _ = apply(t, s, buyEvent("eli", Item{Name: "Ceryx Jade", Cost: 1, Unique: true}))
	cases := []struct {
		name, player, unit string
	}{
		{"the owner again without the flag", "eli", "Ceryx Jade"},
		{"another player without the flag", "kate", "ceryx jade"},
		{"the Knights' Standard Bearer without the flag", "kate", "Standard Bearer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mustFail(t, s, buyEvent(c.player, Item{Name: c.unit, Cost: 1, Faction: "knights"}), "already in the game")
		})
	}
}

// TestMahkimGoodOnly: "Mahkim are considered to be 'factionsless'. They
// may only be acquired by players of good alignment" (source).
func TestMahkimGoodOnly(t *testing.T) {
	cases := []struct {
		name, player string
		it           Item
		ok           bool
	}{
		{"Mahkim Warriors for the evil", "oscar", Item{Name: "Mahkim Warriors", Cost: 1}, false},
		{"a Mahkim-faction disk for the evil", "oscar", Item{Name: "Sand Riders", Cost: 1, Faction: "Mahkim"}, false},
		{"Mahkim Warriors for the good", "kate", Item{Name: "Mahkim Warriors", Cost: 1}, true},
		{"a Mahkim-faction disk for the good", "kate", Item{Name: "Sand Riders", Cost: 1, Faction: "mahkim"}, true},
		{"Makim Champion for the good", "eli", Item{Name: "Makim Champion", Cost: 1}, true},
	}
	s := newCampaign(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := s.Apply(buyEvent(c.player, c.it))
			if (err == nil) != c.ok {
				t.Errorf("got error %v, want accepted %v", err, c.ok)
			}
		})
	}
}

// TestHealOneWoundPerTurn: "disks of good aligned players touching
// their homeland [the Acolytes'] are allowed to heal 1 Wound per turn"
// (source).
func TestHealOneWoundPerTurn(t *testing.T) {
	s, _ := apply(t, State{}, Event{Kind: KindSetup, Players: []PlayerSetup{
		{Name: "ada", Faction: "disciples", Gold: 10, Army: []Item{{Name: "Swordsmen", Cost: 1, Faction: "disciples"}}},
		{Name: "oscar", Faction: "orcs", Gold: 10, Army: []Item{{Name: "Grugs", Cost: 1, Faction: "orcs"}}},
	}})
	s, _ = apply(t, s, Event{Kind: KindWound, Player: "ada", Unit: "Swordsmen", Amount: 3})
	s, _ = apply(t, s, Event{Kind: KindWound, Player: "oscar", Unit: "Grugs", Amount: 1})
	mustFail(t, s, Event{Kind: KindHeal, Player: "ada", Unit: "Swordsmen", Amount: 2}, "1 wound each per turn")
	once, _ := apply(t, s, Event{Kind: KindHeal, Player: "ada", Unit: "Swordsmen", Amount: 1})
	if once.Wounds["ada/Swordsmen"] != 2 {
		t.Errorf("after healing 1 of 3: got %d wounds, want 2", once.Wounds["ada/Swordsmen"])
	}
	mustFail(t, once, Event{Kind: KindHeal, Player: "ada", Unit: "Swordsmen", Amount: 1}, "1 wound each per turn")
	next, _ := apply(t, once, Event{Kind: KindEndTurn})
	apply(t, next, Event{Kind: KindHeal, Player: "ada", Unit: "Swordsmen", Amount: 1})
	mustFail(t, s, Event{Kind: KindHeal, Player: "oscar", Unit: "Grugs", Amount: 1}, "good aligned")

	none := newCampaign(t)
	none, _ = apply(t, none, Event{Kind: KindWound, Player: "kate", Unit: "Standard Bearer", Amount: 2})
	mustFail(t, none, Event{Kind: KindHeal, Player: "kate", Unit: "Standard Bearer", Amount: 1}, "Acolytes")
}

// TestConqueredPlayerMayNotBid: players who "have lost their homeland
// ... may not produce any units" (source), so none wins a bidding war.
func TestConqueredPlayerMayNotBid(t *testing.T) {
	s := newCampaign(t)
	ceryx := Item{Name: "Ceryx Jade", Cost: 1, Unique: true}
	s, _ = apply(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{ceryx}}, {Player: "eli", Items: []Item{ceryx}}}})
	s, _ = apply(t, s, Event{Kind: KindConquest, Homeland: "eli", By: "oscar"})
	mustFail(t, s, Event{Kind: KindBid, Unit: "Ceryx Jade", Bidders: []string{"eli"}}, "may not produce")
	won, _ := apply(t, s, Event{Kind: KindBid, Unit: "Ceryx Jade", Bidders: []string{"kate"}})
	if won.Units["kate"]["Ceryx Jade"] != 1 {
		t.Errorf("kate the last bidder: got units %v", won.Units["kate"])
	}
}

func guard(id, name string, x, y models.Centimetres) models.Disk {
	d := withPoints(unit(id, name, "oscar", x, y), 4)
	d.Keywords = []string{"homeland-guard"}
	return d
}

// TestUndeadGuardsAreFree: "the Undead player gains 2 free Undead Horde
// and 2 free Skeleton Archers" (source): marked homeland-guard, they cost
// none of the 150 points; no other disk is a free guard.
func TestUndeadGuardsAreFree(t *testing.T) {
	undead := func() models.Layout {
		l := fourFactions()
		l.Disks[2].Faction = "undead"
		l.Disks = append(l.Disks, withPoints(unit("n1", "Undead Horde", "oscar", 160, 30), 150),
			guard("g1", "Undead Horde", 155, 20), guard("g2", "Undead Horde", 165, 20),
			guard("g3", "Skeleton Archers", 160, 15), guard("g4", "Skeleton Archers", 160, 25))
		return l
	}
	ps, err := CheckSetup(with(undead()))
	if err != nil || len(ps) != 0 {
		t.Fatalf("150 points and the 4 free guards: got %+v (%v), want no problem", ps, err)
	}
	cases := []struct {
		name string
		d    models.Disk
		want string
	}{
		{"a third guarding Undead Horde", guard("g5", "Undead Horde", 157, 25), "homeland guard"},
		{"a guarding Peasants", guard("g6", "Peasants", 163, 25), "homeland guard"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps, err := CheckSetup(with(undead(), c.d))
			if err != nil {
				t.Fatal(err)
			}
			if rules := problemRules(ps); !slices.Contains(rules, c.want) || !slices.Contains(rules, "army points") {
				t.Errorf("got problems %+v, want %q and its points counted (army points)", ps, c.want)
			}
		})
	}
}
