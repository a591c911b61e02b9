package greatwar

import (
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tableref/models"
)

func decodeEvent(t *testing.T, raw string) Event {
	t.Helper()
	var e Event
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return e
}

// ledgerSums sums effects by "player resource", as a player's ledger adds
// them up.
func ledgerSums(effs []Effect) map[string]int {
	out := map[string]int{}
	for _, e := range effs {
		out[e.Player+" "+e.Resource] += e.Delta
	}
	maps.DeleteFunc(out, func(_ string, v int) bool { return v == 0 })
	return out
}

// stateSums is what the state holds under the same keys.
func stateSums(s State) map[string]int {
	out := map[string]int{}
	for p, g := range s.Gold {
		out[p+" gold"] = g
	}
	for p, us := range s.Units {
		for u, n := range us {
			out[p+" unit:"+u] = n
		}
	}
	for what, m := range map[string]map[string]int{"wounds": s.Wounds, "damage": s.Damage} {
		for k, n := range m {
			p, u, _ := strings.Cut(k, "/")
			out[p+" "+what+":"+u] = n
		}
	}
	maps.DeleteFunc(out, func(_ string, v int) bool { return v == 0 })
	return out
}

// play applies events from an empty state, keeping every effect, and
// checks after each step that the effects add up to the state: the
// ledger's balances and the campaign status must agree.
func play(t *testing.T, events ...Event) (State, []Effect) {
	t.Helper()
	var s State
	var all, last []Effect
	for _, e := range events {
		s, last = apply(t, s, e)
		all = append(all, last...)
		if got, want := ledgerSums(all), stateSums(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s: the effects add up to %v, the state holds %v", e.Kind, got, want)
		}
	}
	return s, last
}

func setupOf(army ...Item) Event {
	return Event{Kind: KindSetup, RulesVersion: CurrentRules, Players: []PlayerSetup{
		{Name: "kate", Faction: "knights", Gold: 20, Army: army},
		{Name: "eli", Faction: "elves", Gold: 20},
		{Name: "oscar", Faction: "orcs", Gold: 20},
		{Name: "ned", Faction: "undead", Gold: 3},
	}}
}

func TestRulesVersionOfTheSetup(t *testing.T) {
	if s := newCampaign(t); s.RulesVersion != CurrentRules {
		t.Errorf("got rules version %d, want %d", s.RulesVersion, CurrentRules)
	}
	e := setupOf()
	e.RulesVersion = CurrentRules + 1
	mustFail(t, State{}, e, "rules_version")
}

// TestOneSpellingPerUnit: a unit bought, wounded or killed under another
// spelling is the one already in play, so two spellings never coexist
// and the Knights' exchange "a Standard Bearer against a Ruins-terrain"
// (source) has only one to take.
func TestOneSpellingPerUnit(t *testing.T) {
	sword := Item{Name: "Swordsmen", Cost: 4, Faction: "knights"}
	s, eff := play(t, setupOf(sword, Item{Name: "Standard Bearer", Cost: 10, Faction: "knights"}),
		buyEvent("kate", Item{Name: "swordsmen", Cost: 4, Faction: "knights"}, Item{Name: "standard bearer", Cost: 1, Faction: "knights"}))
	if want := map[string]int{"Swordsmen": 2, "Standard Bearer": 2}; !maps.Equal(s.Units["kate"], want) {
		t.Errorf("got units %v, want %v", s.Units["kate"], want)
	}
	if eff[1].Resource != "unit:Swordsmen" {
		t.Errorf("bought as swordsmen: got effect %v, want it on unit:Swordsmen", eff[1])
	}
	s, _ = play(t, setupOf(sword, Item{Name: "Standard Bearer", Cost: 10, Faction: "knights"}),
		buyEvent("kate", Item{Name: "swordsmen", Cost: 4, Faction: "knights"}),
		Event{Kind: KindWound, Player: "kate", Unit: "SWORDSMEN", Amount: 1},
		Event{Kind: KindDeath, Player: "kate", Unit: "swordsmen"},
		Event{Kind: KindRuins, Player: "kate"})
	if s.Wounds["kate/Swordsmen"] != 1 || s.Units["kate"]["Swordsmen"] != 1 {
		t.Errorf("got wounds %v, units %v; want 1 wound on the 1 Swordsmen left", s.Wounds, s.Units["kate"])
	}
}

// TestAUniqueFlaggedInAnyOrderIsContested: "Players may only acquire
// unique Disks if these have not been introduced to the game before" and
// "If several players want to buy the same unique unit at the same time,
// all the money is taken away" (source): the buys are revealed together,
// so a disk flagged unique in one order is the same unique in the others.
func TestAUniqueFlaggedInAnyOrderIsContested(t *testing.T) {
	cases := []struct{ name, event string }{
		{"flagged by the first order only", `{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Ceryx Jade","cost":6,"unique":true}]},{"player":"eli","items":[{"name":"Ceryx Jade","cost":6}]}]}`},
		{"flagged by the second order only", `{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Ceryx Jade","cost":6}]},{"player":"eli","items":[{"name":"ceryx jade","cost":6,"unique":true}]}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := decodeEvent(t, c.event)
			s, _ := apply(t, newCampaign(t), e)
			if s.Gold["kate"] != 4 || s.Gold["eli"] != 4 || s.count("kate", "ceryx jade")+s.count("eli", "ceryx jade") != 0 {
				t.Errorf("got gold %v, units %v; want 6 gold lost each and nobody holding Ceryx Jade", s.Gold, s.Units)
			}
			if b := s.Biddings["ceryx jade"]; !slices.Equal(b.Active, []string{"kate", "eli"}) {
				t.Errorf("got bidding %+v, want kate and eli bidding", b)
			}
			if e.Orders[0].Items[0].Unique == e.Orders[1].Items[0].Unique {
				t.Errorf("the event's own orders were changed: %+v", e.Orders)
			}
		})
	}
	t.Run("one order holding it twice, flagged once", func(t *testing.T) {
		mustFail(t, newCampaign(t), buyEvent("eli", Item{Name: "Ceryx Jade", Cost: 1}, Item{Name: "Ceryx Jade", Cost: 1, Unique: true}), "already in the game")
	})
}

// TestTheFamiliarIsNeverUnique: "no unique disk is be chosen more than
// once. Exception: Familiar" and "each player is allowed to have 1
// Familiar" (source).
func TestTheFamiliarIsNeverUnique(t *testing.T) {
	fam := Item{Name: "Familiar", Cost: 2, Unique: true}
	s, _ := apply(t, newCampaign(t), Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{fam}}, {Player: "eli", Items: []Item{fam}}}})
	if s.count("kate", Familiar) != 1 || s.count("eli", Familiar) != 1 || len(s.Biddings) != 0 {
		t.Errorf("two players buying a Familiar flagged unique: got units %v, biddings %v; want one each, no bidding war", s.Units, s.Biddings)
	}
	if _, ok := s.Uniques[Familiar]; ok {
		t.Errorf("the Familiar is recorded as a unique: %v", s.Uniques)
	}
	s, _ = apply(t, s, buyEvent("oscar", fam))
	if s.count("oscar", Familiar) != 1 {
		t.Errorf("a third player's Familiar: got %v", s.Units["oscar"])
	}
	mustFail(t, s, buyEvent("kate", fam), "allowed 1")
	mustFail(t, s, buyEvent("kate", Item{Name: "familiar", Cost: 2}), "allowed 1")
	mustFail(t, newCampaign(t), buyEvent("eli", fam, fam), "allowed 1")

	setup, _ := apply(t, State{}, setupOf(Item{Name: "Familiar", Cost: 2, Unique: true}))
	if _, ok := setup.Uniques[Familiar]; ok {
		t.Errorf("a starting Familiar flagged unique is recorded as a unique: %v", setup.Uniques)
	}
	apply(t, setup, buyEvent("eli", fam))
	mustFail(t, State{}, setupOf(fam, fam), "allowed 1")
}

// TestDeathKeepsTheWoundsOfTheDisksLeft: wounds and damage are kept per
// unit name; a death of one of two Swordsmen leaves them on the other, the
// death of the last clears them, and each change is an effect, so that a
// player's ledger adds up to the campaign status.
func TestDeathKeepsTheWoundsOfTheDisksLeft(t *testing.T) {
	sword := Item{Name: "Swordsmen", Cost: 4, Faction: "knights"}
	setup := setupOf(sword, sword)
	wound := Event{Kind: KindWound, Player: "kate", Unit: "Swordsmen", Amount: 2}
	hurt := Event{Kind: KindDamage, Player: "kate", Unit: "Swordsmen", Amount: 1}
	death := Event{Kind: KindDeath, Player: "kate", Unit: "Swordsmen"}
	s, eff := play(t, setup, wound, hurt, death)
	if want := []Effect{{"kate", "unit:Swordsmen", -1, "killed"}}; !reflect.DeepEqual(eff, want) {
		t.Errorf("one of two dies: got effects %v, want %v", eff, want)
	}
	if s.Wounds["kate/Swordsmen"] != 2 || s.Damage["kate/Swordsmen"] != 1 {
		t.Errorf("one of two dies: got wounds %v damage %v, want 2 and 1 kept", s.Wounds, s.Damage)
	}
	s, eff = play(t, setup, wound, hurt, death, death)
	want := []Effect{{"kate", "unit:Swordsmen", -1, "killed"}, {"kate", "wounds:Swordsmen", -2, "killed"}, {"kate", "damage:Swordsmen", -1, "killed"}}
	if !reflect.DeepEqual(eff, want) {
		t.Errorf("the last dies: got effects %v, want %v", eff, want)
	}
	if len(s.Wounds)+len(s.Damage) != 0 {
		t.Errorf("the last dies: got wounds %v damage %v, want none", s.Wounds, s.Damage)
	}
}

// TestResurrectionGoesBackToTheOwner: "The Resurrection spell is the only
// possibility to get a dead unique disk back into the game" and "Players
// are not allowed to have 'mixed armies'" (source): the disk comes back
// to a named player, its owner.
func TestResurrectionGoesBackToTheOwner(t *testing.T) {
	dead, _ := apply(t, newCampaign(t), Event{Kind: KindDeath, Player: "kate", Unit: "Standard Bearer"})
	mustFail(t, dead, decodeEvent(t, `{"kind":"resurrect","unit":"Standard Bearer"}`), "give the player")
	mustFail(t, dead, Event{Kind: KindResurrect, Player: "oscar", Unit: "Standard Bearer"}, "kate's disk")
	mustFail(t, dead, Event{Kind: KindResurrect, Player: "eli", Unit: "Standard Bearer"}, "kate's disk")
	unknown := dead.clone()
	unknown.Uniques[StandardBearer] = Unique{Faction: "knights", Dead: true, DiedTurn: 1}
	mustFail(t, unknown, Event{Kind: KindResurrect, Player: "oscar", Unit: "Standard Bearer"}, "mixed armies")
	back, eff := apply(t, dead, Event{Kind: KindResurrect, Player: "kate", Unit: "Standard Bearer"})
	if want := []Effect{{"kate", "unit:Standard Bearer", 1, "resurrected"}}; !reflect.DeepEqual(eff, want) || back.Uniques[StandardBearer].Owner != "kate" {
		t.Errorf("got effects %v, uniques %v; want the Standard Bearer back with kate", eff, back.Uniques)
	}
}

// TestStartingArmyPoints: "each player may chose units and spells worth
// 150 points as his starting army" (source): points that overflow an int
// or are negative do not slip under the limit.
func TestStartingArmyPoints(t *testing.T) {
	cases := []struct {
		name string
		army []Item
		want string
	}{
		{"two items of the largest cost", []Item{{Name: "Swordsmen", Cost: math.MaxInt, Faction: "knights"}, {Name: "Peasants", Cost: math.MaxInt, Faction: "knights"}}, "beyond"},
		{"a negative cost", []Item{{Name: "Swordsmen", Cost: 200, Faction: "knights"}, {Name: "Peasants", Cost: -100, Faction: "knights"}}, "negative cost"},
		{"151 points", []Item{{Name: "Swordsmen", Cost: 150, Faction: "knights"}, {Name: "Peasants", Cost: 1, Faction: "knights"}}, "more than 150"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mustFail(t, State{}, setupOf(c.army...), c.want) })
	}
}

// TestOnePlayingOrderPerTurn: "At the beginning of each new turn, number
// counters ... are randomly taken from a cup" (source): once a turn.
func TestOnePlayingOrderPerTurn(t *testing.T) {
	order := Event{Kind: KindOrder, Order: []string{"kate", "eli", "oscar", "ned"}}
	s, _ := apply(t, newCampaign(t), order)
	mustFail(t, s, Event{Kind: KindOrder, Order: []string{"ned", "oscar", "eli", "kate"}}, "undo")
	next, _ := apply(t, s, Event{Kind: KindEndTurn})
	apply(t, next, Event{Kind: KindOrder, Order: []string{"ned", "oscar", "eli", "kate"}})
}

// TestCheckSetupOwnerlessTerrains: "2 terrains may be placed by each
// faction's player" and "Evil players may not chose ... Good players may
// not chose a Scorched Valley or an Evil Temple" (source) can only be
// checked for a terrain with an owner: only the central mountain has none.
func TestCheckSetupOwnerlessTerrains(t *testing.T) {
	cases := []struct {
		name string
		edit func(*models.Layout)
		want string
	}{
		{"an ownerless forest", func(l *models.Layout) { l.Disks[5].Owner = "" }, "terrain owner"},
		{"an ownerless scorched valley", func(l *models.Layout) { l.Disks[7].Owner, l.Disks[7].Terrain = "", "scorched valley" }, "terrain owner"},
		{"a second ownerless mountain", func(l *models.Layout) { l.Disks[6].Owner = "" }, "central mountain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := fourFactions()
			c.edit(&l)
			ps, err := CheckSetup(with(l))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(problemRules(ps), c.want) {
				t.Errorf("got problems %+v, want one of rule %q", ps, c.want)
			}
		})
	}
}
