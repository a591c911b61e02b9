package esfah

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestConversionsBuyRacesTheCampaignKnows: "recruiting points may be used
// to recruit units of a different race, or to acquire magic items and
// artifacts" and "He combines his Vagha and Mohrel recruiting points,
// halves them and recruits 4 health worth of Feral" (source, section 7).
// The race bought must be one the campaign knows: the native terrain
// table's, or one whose native terrain the campaign or the army gives. A
// misspelling ("Vagah") used to add a new race to the ledger.
func TestConversionsBuyRacesTheCampaignKnows(t *testing.T) {
	feralOf := func(race string) Spend {
		return Spend{Converted: []Conversion{{From: map[string]Health{"vagha": 3, "mohrel": 5}, Race: race, Health: 4}}}
	}
	cases := []struct {
		name     string
		campaign map[string]string // setup natives
		army     map[string]string // the army's natives
		bonus    map[string]Health
		spend    Spend
		err      string // "" when accepted
	}{
		{name: "4 Feral, as the text's example", spend: feralOf("Feral")},
		{name: "Feral in capitals", spend: feralOf("FERAL")},
		{name: "Vagha, a race of the native terrain table", spend: feralOf("Vagha")},
		{name: "Vagah for Vagha", spend: feralOf("Vagah"), err: "did you mean vagha?"},
		{name: "Firewaker for Firewalker", spend: feralOf("Firewaker"), err: "did you mean firewalker?"},
		{name: "Ferals for Feral", spend: feralOf("Ferals"), err: "did you mean feral?"},
		{name: "Dwarves, whose native terrain nobody gave", spend: feralOf("Dwarves"), err: `needs its native terrain in "natives"`},
		{name: "Dwarves, native to the highlands by the setup", campaign: map[string]string{"dwarves": "highland"}, spend: feralOf("Dwarves")},
		{name: "Dwarves, native to the highlands by the army", army: map[string]string{"Dwarves": "highland"}, spend: feralOf("dwarves")},
		{name: "Dwarfs when the setup gives Dwarves", campaign: map[string]string{"dwarves": "highland"}, spend: feralOf("Dwarfs"), err: "did you mean dwarves?"},
		{name: "red magic items bought as a race", spend: feralOf("red magic items"), err: `"items": true`},
		{name: "Vagah recruited at full rate", spend: Spend{Own: map[string]Health{"Vagah": 3}}, err: "did you mean vagha?"},
		{name: "Vagah bonus recruits (section 7, Bonus Recruits)", bonus: map[string]Health{"Vagah": 3},
			spend: Spend{Own: map[string]Health{"Vagah": 3}}, err: "did you mean vagha?"},
		{name: "Feral bonus recruits", bonus: map[string]Health{"Feral": 3}, spend: Spend{Own: map[string]Health{"feral": 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forces := Army{Terrain: "flatland", Units: []Unit{{"Vagha", 12}, {"Mohrel", 17}}, Natives: c.army, Bonus: c.bonus}
			rec := Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &forces, Spend: &c.spend}
			n, eff, err := recruitingState(t, c.campaign).Apply(rec)
			if c.err == "" {
				if err != nil {
					t.Errorf("got %v, want it accepted", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrUnknownRace) && !strings.Contains(c.err, "items") {
				t.Errorf("got %v (pool %d, effects %v), want an unknown race error saying %q", err, n.Pool["chris"], eff, c.err)
			}
		})
	}
}

// TestDeathsOfRacesTheCampaignKnows: a death names the race of the units
// killed; the races are those of the native terrain table (section 7),
// the dragons and dragonkin of the battle size table (section 1), and the
// races whose native terrain the campaign gives, in its setup or in the
// natives of an army that recruited.
func TestDeathsOfRacesTheCampaignKnows(t *testing.T) {
	withDwarves := func(t *testing.T) State {
		s := recruitingState(t, nil)
		forces := Army{Terrain: "highland", Units: []Unit{{"Dwarves", 8}}, Natives: map[string]string{"Dwarves": "highland"}}
		spend := Spend{Own: map[string]Health{"dwarves": 4}}
		s, _ = mustApply(t, s, Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &forces, Spend: &spend})
		if want := []string{"dwarves"}; !reflect.DeepEqual(s.Races, want) {
			t.Errorf("races learnt from the army's natives: got %v, want %v", s.Races, want)
		}
		return s
	}
	cases := []struct {
		name  string
		state func(*testing.T) State
		race  string
		err   string
	}{
		{"Vagha", func(t *testing.T) State { return recruitingState(t, nil) }, "Vagha", ""},
		{"Swamp Stalkers", func(t *testing.T) State { return recruitingState(t, nil) }, "Swamp Stalkers", ""},
		{"a red dragon", func(t *testing.T) State { return recruitingState(t, nil) }, "red dragon", ""},
		{"Dragonkin", func(t *testing.T) State { return recruitingState(t, nil) }, "Dragonkin", ""},
		{"Vagah for Vagha", func(t *testing.T) State { return recruitingState(t, nil) }, "Vagah", "did you mean vagha?"},
		{"Dwarves, whose native terrain nobody gave", func(t *testing.T) State { return recruitingState(t, nil) }, "Dwarves", "natives"},
		{"Dwarves, native by the setup", func(t *testing.T) State { return recruitingState(t, map[string]string{"Dwarves": "highland"}) }, "dwarves", ""},
		{"Dwarves, native by the natives of an army that recruited", withDwarves, "Dwarves", ""},
		{"Dwarfs, when an army made Dwarves native", withDwarves, "Dwarfs", "did you mean dwarves?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, eff, err := c.state(t).Apply(Event{Kind: KindDeath, Player: "chris", Race: c.race, Health: 2})
			if c.err == "" {
				if err != nil {
					t.Errorf("got %v, want it accepted", err)
				}
				return
			}
			if !errors.Is(err, ErrUnknownRace) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("got %v (effects %v), want an unknown race error saying %q", err, eff, c.err)
			}
		})
	}
}

// TestNativesMayNotMisspellARaceOfTheTable: natives add the races the
// native terrain table does not list ("Units in their native terrain,
// normally the terrain where their racial advantage applies", section 7);
// "Vagah": "highland" would add a second Vagha.
func TestNativesMayNotMisspellARaceOfTheTable(t *testing.T) {
	cases := []struct {
		natives map[string]string
		err     string
	}{
		{map[string]string{"Vagah": "highland"}, "did you mean vagha?"},
		{map[string]string{"Morhel": "highland"}, "did you mean mohrel?"},
		{map[string]string{"Trog": "swampland", "Trogg": "swampland"}, "did you mean trog?"},
		{map[string]string{"Dwarves": "highland", "Coral Elves": "coastland", "Goblins": "swampland", "Lava Elves": "flatland"}, ""},
	}
	for _, c := range cases {
		t.Run(strings.Join(slices.Sorted(maps.Keys(c.natives)), " and "), func(t *testing.T) {
			_, _, err := (State{}).Apply(Event{Kind: KindSetup, Players: []string{"a", "b"}, TotalHealth: 120, Natives: c.natives})
			_, perr := Points(Army{Terrain: "highland", Units: []Unit{{"vagha", 4}}, Natives: c.natives})
			for what, err := range map[string]error{"setup": err, "an army's natives": perr} {
				if c.err == "" && err != nil {
					t.Errorf("%s: got %v, want it accepted", what, err)
				}
				if c.err != "" && (!errors.Is(err, ErrUnknownRace) || !strings.Contains(err.Error(), c.err)) {
					t.Errorf("%s: got %v, want an error saying %q", what, err, c.err)
				}
			}
		})
	}
}
