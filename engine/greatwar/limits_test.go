package greatwar

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tableref/models"
)

// The text's limits on a unit's number: "the Knights player may only have
// 2 Catapults in play at any time during the game" and "each player is
// allowed to have 1 Familiar" (source, Some further restrictions). A
// player writes the name as he likes: any case, spaces around or
// doubled, and the plural the text itself uses ("Catapults").

// TestCatapultLimitWhateverTheSpelling: from Rules2 on, a third Catapult
// is refused under any of the names a user would give it.
func TestCatapultLimitWhateverTheSpelling(t *testing.T) {
	cat := Item{Name: "Catapult", Cost: 1, Faction: "knights"}
	s, _ := play(t, setupOf(cat, cat))
	for _, name := range []string{"Catapult", "Catapults", "CATAPULTS", "  catapults ", "Catapult  "} {
		t.Run(name+" as a third Catapult is refused", func(t *testing.T) {
			mustFail(t, s, buyEvent("kate", Item{Name: name, Cost: 1, Faction: "knights"}), "2 Catapults")
		})
	}
	cases := []struct {
		name  string
		setup Event
		buy   Event
		fails string
	}{
		{"two Catapults and a Catapults in one order", setupOf(),
			buyEvent("kate", cat, cat, Item{Name: "Catapults", Cost: 1, Faction: "knights"}), "2 Catapults"},
		{"a starting army of Catapult, Catapults and catapults", setupOf(cat, Item{Name: "Catapults", Cost: 1, Faction: "knights"}, Item{Name: "catapults", Cost: 1, Faction: "knights"}),
			Event{}, "2 Catapults"},
		{"two Catapults bought as Catapults", setupOf(),
			buyEvent("kate", Item{Name: "Catapults", Cost: 1, Faction: "knights"}, Item{Name: "Catapults", Cost: 1, Faction: "knights"}), ""},
		{"a Catapult Crew is another unit", setupOf(cat, cat),
			buyEvent("kate", Item{Name: "Catapult Crew", Cost: 1, Faction: "knights"}), ""},
		{"the limit is the Knights' only", setupOf(),
			Event{Kind: KindPurchase, Orders: []Order{{Player: "oscar", Items: []Item{{Name: "Catapult", Cost: 1, Faction: "orcs"}, {Name: "Catapults", Cost: 1, Faction: "orcs"}, {Name: "catapults", Cost: 1, Faction: "orcs"}}}}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, err := State{}.Apply(c.setup)
			if c.buy.Kind != "" && err == nil {
				s, _, err = s.Apply(c.buy)
			}
			if c.fails == "" && err != nil || c.fails != "" && (err == nil || !strings.Contains(err.Error(), c.fails)) {
				t.Errorf("got error %v, want one containing %q", err, c.fails)
			}
		})
	}
}

// TestOneFamiliarPluralIncluded: "each player is allowed to have 1
// Familiar" (source), bought as "Familiars" too; and "no unique disk is be
// chosen more than once. Exception: Familiar" (source): a Familiar under
// its plural is no unique either.
func TestOneFamiliarPluralIncluded(t *testing.T) {
	fam := Item{Name: "Familiar", Cost: 2}
	s, _ := play(t, setupOf(fam))
	for _, name := range []string{"Familiars", " FAMILIARS", "familiars  "} {
		t.Run(name+" after a Familiar is refused", func(t *testing.T) {
			mustFail(t, s, buyEvent("kate", Item{Name: name, Cost: 1}), "allowed 1")
		})
	}
	t.Run("two players flagging Familiars unique each get one", func(t *testing.T) {
		s, eff := play(t, setupOf(), Event{Kind: KindPurchase, Orders: []Order{
			{Player: "kate", Items: []Item{{Name: "Familiars", Cost: 2, Unique: true}}},
			{Player: "oscar", Items: []Item{{Name: "Familiars", Cost: 2, Unique: true}}}}})
		if len(eff) != 4 || len(s.Biddings) != 0 {
			t.Errorf("got effects %v, want each to buy his Familiar, no bidding war", eff)
		}
	})
	t.Run("a Familiar held as Familiars is recharged", func(t *testing.T) {
		s, _ := play(t, setupOf(Item{Name: "Familiars", Cost: 2}))
		if _, eff := apply(t, s, Event{Kind: KindRecharge, Player: "kate"}); len(eff) != 1 || eff[0].Delta != -FamiliarRecharge {
			t.Errorf("got %v, want a recharge for %d gold", eff, FamiliarRecharge)
		}
	})
}

// TestALimitedUnitKeepsTheSpellingInPlay: from Rules2 on, Catapults
// bought by a player who has a Catapult are that unit, so a death under
// either name kills one of them.
func TestALimitedUnitKeepsTheSpellingInPlay(t *testing.T) {
	cat := Item{Name: "Catapult", Cost: 1, Faction: "knights"}
	s, eff := play(t, setupOf(cat), buyEvent("kate", Item{Name: "Catapults", Cost: 1, Faction: "knights"}))
	if want := map[string]int{"Catapult": 2}; !maps.Equal(s.Units["kate"], want) {
		t.Errorf("got units %v, want %v", s.Units["kate"], want)
	}
	if eff[1].Resource != "unit:Catapult" {
		t.Errorf("bought as Catapults: got effect %v, want it on unit:Catapult", eff[1])
	}
	s, _ = play(t, setupOf(cat), Event{Kind: KindDeath, Player: "kate", Unit: "catapults"})
	if len(s.Units["kate"]) != 0 {
		t.Errorf("got units %v after the death of catapults, want none", s.Units["kate"])
	}
}

// TestOlderCampaignsKeepTheirOverLimitEvents: a campaign played under an
// earlier rules version compared names exactly, and its ledger may hold a
// third Catapult or a second Familiar under a plural. Replayed, such an
// event gives the effects recorded with it, never an error, and the
// state's warnings say that the current rules refuse it.
func TestOlderCampaignsKeepTheirOverLimitEvents(t *testing.T) {
	cases := []struct {
		name    string
		events  []string
		want    []Effect
		warning string
	}{
		{"original rules: a third Catapult bought as Catapults", []string{`{"kind":"setup","players":[
			{"name":"kate","faction":"knights","gold":9,"army":[{"name":"Catapult","cost":1,"faction":"knights"},{"name":"Catapult","cost":1,"faction":"knights"}]},
			{"name":"oscar","faction":"orcs"}]}`,
			`{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Catapults","cost":3,"faction":"knights"}]}]}`},
			[]Effect{{"kate", "gold", -3, "bought Catapults"}, {"kate", "unit:Catapults", 1, "bought Catapults"}},
			"kate's Catapults: accepted under rules version 0, though rules version 2 refuses it: the Knights may only have 2 Catapults in play"},
		{"rules 1: a second Familiar bought as Familiars", []string{`{"kind":"setup","rules_version":1,"players":[
			{"name":"kate","faction":"knights","gold":9,"army":[{"name":"Familiar","cost":1}]},
			{"name":"oscar","faction":"orcs"}]}`,
			`{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Familiars","cost":2}]}]}`},
			[]Effect{{"kate", "gold", -2, "bought Familiars"}, {"kate", "unit:Familiars", 1, "bought Familiars"}},
			"kate already has a Familiar"},
		{"rules 1: a starting army of three Catapults", []string{`{"kind":"setup","rules_version":1,"players":[
			{"name":"kate","faction":"knights","army":[{"name":"Catapult","cost":1,"faction":"knights"},{"name":"catapults","cost":1,"faction":"knights"},{"name":"Catapults","cost":1,"faction":"knights"}]},
			{"name":"oscar","faction":"orcs"}]}`},
			[]Effect{{"kate", "unit:Catapult", 1, "starting army"}, {"kate", "unit:catapults", 1, "starting army"}, {"kate", "unit:catapults", 1, "starting army"}},
			"kate's Catapults: accepted under rules version 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, got := replayJSON(t, c.events...)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got effects %v, want the recorded %v", got, c.want)
			}
			if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], c.warning) {
				t.Errorf("got warnings %q, want one containing %q", s.Warnings, c.warning)
			}
		})
	}
	t.Run("an event within the limits gives no warning", func(t *testing.T) {
		s, _ := replayJSON(t, storedSetup, `{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Catapults","cost":1,"faction":"knights"},{"name":"Familiars","cost":1}]}]}`)
		if len(s.Warnings) != 0 {
			t.Errorf("got warnings %q, want none", s.Warnings)
		}
	})
	t.Run("a refused purchase leaves no warning behind", func(t *testing.T) {
		s, _ := replayJSON(t, `{"kind":"setup","players":[
			{"name":"kate","faction":"knights","gold":1,"army":[{"name":"Familiar","cost":1}]},{"name":"oscar","faction":"orcs"}]}`)
		if _, _, err := s.Apply(buyEvent("kate", Item{Name: "Familiars", Cost: 5})); err == nil {
			t.Fatal("a purchase beyond kate's gold was accepted")
		}
		if len(s.Warnings) != 0 {
			t.Errorf("got warnings %q, want none", s.Warnings)
		}
	})
}

// TestCheckSetupCountsPluralCatapultsAndFamiliars: the set-up check of a
// table counts "Catapults" and "Familiars" disks as the limited units.
func TestCheckSetupCountsPluralCatapultsAndFamiliars(t *testing.T) {
	cases := []struct {
		name  string
		names []string
		owner string
		y     models.Centimetres
		rule  string
	}{
		{"three Knights' catapults under two spellings", []string{"Catapult", "Catapults", "catapults"}, "kate", 30, "catapults"},
		{"two Familiars under two spellings", []string{"Familiar", "FAMILIARS "}, "eli", 90, "familiar"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ds []models.Disk
			for i, n := range c.names {
				ds = append(ds, unit(fmt.Sprint(c.owner, i), n, c.owner, 20+3*models.Centimetres(i), c.y))
			}
			ps, err := CheckSetup(with(fourFactions(), ds...))
			if err != nil {
				t.Fatal(err)
			}
			if got := problemRules(ps); !slices.Contains(got, c.rule) {
				t.Errorf("got problems %v, want %q", ps, c.rule)
			}
		})
	}
}
