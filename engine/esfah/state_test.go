package esfah

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
)

func mustApply(t *testing.T, s State, e Event) (State, []Effect) {
	t.Helper()
	n, eff, err := s.Apply(e)
	if err != nil {
		t.Fatalf("%s: %v", e.Kind, err)
	}
	return n, eff
}

func TestCampaignRecruitsEveryFifthTurnFromThePool(t *testing.T) {
	s, eff := mustApply(t, State{}, Event{Kind: KindSetup, Players: []string{"chris", "dana"}, TotalHealth: 120})
	if s.Pool["chris"] != 60 || len(eff) != 2 {
		t.Fatalf("setup: got pool %v effects %v, want 60 each (source battle size table)", s.Pool, eff)
	}
	forces := chrisArmy("highland")
	spend := Spend{Own: map[string]Health{"vagha": 6, "mohrel": 10}}
	rec := Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &forces, Spend: &spend}
	if _, _, err := s.Apply(rec); err == nil || !strings.Contains(err.Error(), "every 5th") {
		t.Errorf("recruiting in turn 1: got %v, want an error about the cycle", err)
	}
	for range 5 {
		s, _ = mustApply(t, s, Event{Kind: KindEndRound})
	}
	before := s
	s, eff = mustApply(t, s, rec)
	if s.Pool["chris"] != 60-16 {
		t.Errorf("pool after recruiting 16: got %d, want 44", s.Pool["chris"])
	}
	if before.Pool["chris"] != 60 {
		t.Errorf("Apply changed the state it was called on: pool %d", before.Pool["chris"])
	}
	if len(eff) != 4 {
		t.Errorf("effects: got %v, want 4 (pool and health for each race)", eff)
	}
	if _, _, err := s.Apply(rec); err == nil {
		t.Error("the same army recruiting twice in a cycle: got no error")
	}
	over := Spend{Own: map[string]Health{"vagha": 7}}
	if _, _, err := before.Apply(Event{Kind: KindRecruit, Player: "chris", ArmyName: "home", Forces: &forces, Spend: &over}); err == nil {
		t.Error("7 Vagha from 6 points: got no error")
	}
}

func TestCampaignCaptureAndVictory(t *testing.T) {
	s, _ := mustApply(t, State{}, Event{Kind: KindSetup, Players: []string{"a", "b"}, TotalHealth: 120})
	for i := 1; i <= 8; i++ {
		s, _ = mustApply(t, s, Event{Kind: KindExpand, Terrain: "T" + string(rune('0'+i))})
	}
	if _, _, err := s.Apply(Event{Kind: KindExpand, Terrain: "T1"}); err == nil {
		t.Error("drawing a terrain already in play: got no error")
	}
	for i := 1; i <= 4; i++ {
		s, _ = mustApply(t, s, Event{Kind: KindCapture, Player: "a", Terrain: "T" + string(rune('0'+i))})
	}
	if s.Winner != "" {
		t.Errorf("4 of 8 terrain: got winner %q, want none", s.Winner)
	}
	s, _ = mustApply(t, s, Event{Kind: KindCapture, Player: "b", Terrain: "T1"})
	s, _ = mustApply(t, s, Event{Kind: KindCapture, Player: "a", Terrain: "T5"})
	if s.Winner != "" || s.Held("a") != 4 {
		t.Errorf("after b took T1: a holds %d, winner %q; want 4 and none", s.Held("a"), s.Winner)
	}
	s, _ = mustApply(t, s, Event{Kind: KindCapture, Player: "a", Terrain: "T6"})
	if s.Winner != "a" {
		t.Errorf("5 of 8 terrain (goal 5): got winner %q, want a", s.Winner)
	}
}

func TestCampaignRejectsBadEvents(t *testing.T) {
	s, _ := mustApply(t, State{}, Event{Kind: KindSetup, Players: []string{"a", "b"}, TotalHealth: 180})
	bad := []Event{
		{Kind: "bogus"},
		{Kind: KindSetup, Players: []string{"c", "d"}, TotalHealth: 120},
		{Kind: KindCapture, Player: "zed", Terrain: "T1"},
		{Kind: KindCapture, Player: "a", Terrain: "T1"},
		{Kind: KindOrder, Maneuvers: map[string]int{"a": 3, "b": 3}},
		{Kind: KindDeath, Player: "a"},
		{Kind: KindDeath, Race: "vagha", Health: 2}, // whose units?
	}
	for _, e := range bad {
		if _, _, err := s.Apply(e); err == nil {
			t.Errorf("%+v: got no error", e)
		}
	}
	if _, _, err := (State{}).Apply(Event{Kind: KindSetup, Players: []string{"a", "b"}, TotalHealth: 100}); err == nil {
		t.Error("setup at 100 health: got no error")
	}
}

// event decodes an event from its JSON, as the ledger does.
func event(t *testing.T, js string) Event {
	t.Helper()
	var e Event
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return e
}

// recruitingState is a campaign of chris and dana at its first recruiting
// (5 turns completed), with the given setup natives.
func recruitingState(t *testing.T, natives map[string]string) State {
	t.Helper()
	s, _ := mustApply(t, State{}, Event{Kind: KindSetup, Players: []string{"chris", "dana"}, TotalHealth: 120, Natives: natives})
	for range 5 {
		s, _ = mustApply(t, s, Event{Kind: KindEndRound})
	}
	return s
}

func TestCaptureAndRecruitNeedAPlayer(t *testing.T) {
	s := recruitingState(t, nil)
	s, _ = mustApply(t, s, Event{Kind: KindExpand, Terrain: "T1"})
	s, _ = mustApply(t, s, Event{Kind: KindCapture, Player: "chris", Terrain: "T1"})
	forces := Army{Terrain: "highland", Units: []Unit{{"vagha", 8}}}
	spend := Spend{}
	for _, e := range []Event{
		{Kind: KindCapture, Terrain: "T1"},
		{Kind: KindRecruit, ArmyName: "horde", Forces: &forces, Spend: &spend},
	} {
		if _, _, err := s.Apply(e); err == nil || !strings.Contains(err.Error(), "player") {
			t.Errorf("%s with no player: got %v, want an error asking for the player", e.Kind, err)
		}
	}
}

func TestSetupRefusesPaddedOrEmptyPlayerNames(t *testing.T) {
	for _, players := range [][]string{{"chris", " dana"}, {"chris ", "dana"}, {"chris", ""}, {"chris", "  "}, {"chris", "chris"}} {
		if _, _, err := (State{}).Apply(Event{Kind: KindSetup, Players: players, TotalHealth: 120}); err == nil {
			t.Errorf("setup with players %q: got no error", players)
		}
	}
}

// TestOrderTieRerolls: "Any players tying roll their Horde armies again,
// against the other players with the same total, then sit accordingly"
// (source, section 3).
func TestOrderTieRerolls(t *testing.T) {
	s, _ := mustApply(t, State{}, Event{Kind: KindSetup, Players: []string{"ann", "bob", "cy", "dee"}, TotalHealth: 120})
	cases := []struct {
		name, event string
		want        []string // nil: refused
		err         string
	}{
		{"no tie, no reroll (as old events)", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":2,"dee":7}}`, []string{"dee", "ann", "bob", "cy"}, ""},
		{"a tie without a reroll", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3,"dee":1}}`, nil, "roll their Horde armies again"},
		{"the tied pair rerolls: bob 6, cy 1", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3,"dee":1},"rerolls":[{"bob":6,"cy":1}]}`, []string{"ann", "bob", "cy", "dee"}, ""},
		{"the reroll only orders the tied block", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3,"dee":1},"rerolls":[{"bob":1,"cy":9}]}`, []string{"ann", "cy", "bob", "dee"}, ""},
		{"a reroll that ties again", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3,"dee":1},"rerolls":[{"bob":4,"cy":4}]}`, nil, "roll their Horde armies again"},
		{"a second reroll breaks the new tie", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3,"dee":1},"rerolls":[{"bob":4,"cy":4},{"bob":2,"cy":5}]}`, []string{"ann", "cy", "bob", "dee"}, ""},
		{"two tied groups", `{"kind":"order","maneuvers":{"ann":5,"bob":5,"cy":3,"dee":3},"rerolls":[{"dee":2,"cy":1},{"ann":1,"bob":8}]}`, []string{"bob", "ann", "dee", "cy"}, ""},
		{"three tie, two of them tie again", `{"kind":"order","maneuvers":{"ann":4,"bob":4,"cy":4,"dee":1},"rerolls":[{"ann":3,"bob":6,"cy":3},{"ann":1,"cy":2}]}`, []string{"bob", "cy", "ann", "dee"}, ""},
		{"a reroll of players who did not tie", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3,"dee":1},"rerolls":[{"ann":6,"bob":1}]}`, nil, "not a group of tied players"},
		{"a reroll leaving out one of the tied", `{"kind":"order","maneuvers":{"ann":4,"bob":4,"cy":4,"dee":1},"rerolls":[{"ann":6,"bob":1}]}`, nil, "not a group of tied players"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, _, err := s.Apply(event(t, c.event))
			if c.want == nil {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("got order %v, error %v; want an error %q", n.Order, err, c.err)
				}
				return
			}
			if err != nil || !slices.Equal(n.Order, c.want) {
				t.Errorf("got order %v (%v), want %v", n.Order, err, c.want)
			}
		})
	}
}

// TestNativesOfCampaignAndArmyAreOneRace: the campaign says Dwarves are
// native to the highlands, the army's forces spell them "dwarves" and say
// flatland. The same race cannot have two native terrains: the recruit
// is refused, every time (it used to depend on the order of a map).
func TestNativesOfCampaignAndArmyAreOneRace(t *testing.T) {
	s := recruitingState(t, map[string]string{"Dwarves": "highland"})
	forces := Army{Terrain: "highland", Units: []Unit{{"Dwarves", 8}}, Natives: map[string]string{"dwarves": "flatland"}}
	spend := Spend{Own: map[string]Health{"dwarves": 4}}
	rec := Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &forces, Spend: &spend}
	for i := range 100 {
		if _, _, err := s.Apply(rec); err == nil || !strings.Contains(err.Error(), "dwarves") {
			t.Fatalf("try %d: got %v, want an error naming dwarves", i+1, err)
		}
	}
	forces.Natives = map[string]string{"DWARVES": "Highlands"}
	if _, _, err := s.Apply(rec); err != nil {
		t.Errorf("the army repeating the campaign's terrain: %v", err)
	}
	if want := map[string]string{"dwarves": "highland"}; !maps.Equal(s.Natives, want) {
		t.Errorf("campaign natives: got %v, want %v (one spelling)", s.Natives, want)
	}
}

func TestSetupRefusesNativesChangingTheTable(t *testing.T) {
	for _, natives := range []map[string]string{{"vagha": "coastland"}, {"Mohrel": "none"}, {"Dwarves": "highland", "dwarves": "flatland"}} {
		if _, _, err := (State{}).Apply(Event{Kind: KindSetup, Players: []string{"a", "b"}, TotalHealth: 120, Natives: natives}); err == nil {
			t.Errorf("setup natives %v: got no error", natives)
		}
	}
}

// TestRecruitCountsAllConvertedPoints: the 3 + 5 points of Chris's army
// buy 4 Feral (source, section 7), not 2 + 3 when converted apart.
func TestRecruitCountsAllConvertedPoints(t *testing.T) {
	s := recruitingState(t, nil)
	forces := Army{Terrain: "flatland", Units: []Unit{{"Vagha", 12}, {"Mohrel", 17}}}
	spend := Spend{Converted: []Conversion{
		{From: map[string]Health{"vagha": 3}, Race: "feral", Health: 2},
		{From: map[string]Health{"mohrel": 5}, Race: "feral", Health: 3},
	}}
	if _, _, err := s.Apply(Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &forces, Spend: &spend}); err == nil {
		t.Error("5 Feral from 3 Vagha and 5 Mohrel points converted apart: got no error")
	}
}

// TestArmiesInReserveRecruit: "All armies in play, including armies in
// reserve may recruit units" (source, section 7, "Recruiting Cycles"). An
// army in the reserve area stands in no terrain, so nothing is doubled.
func TestArmiesInReserveRecruit(t *testing.T) {
	cases := []struct {
		terrain string
		want    map[Race]Health
	}{
		{"reserve", map[Race]Health{"vagha": 3, "amazon": 2}},
		{"Reserves", map[Race]Health{"vagha": 3, "amazon": 2}},
		{"the reserve area", map[Race]Health{"vagha": 3, "amazon": 2}},
		{"highland", map[Race]Health{"vagha": 6, "amazon": 2}},
	}
	for _, c := range cases {
		t.Run("an army at "+c.terrain, func(t *testing.T) {
			forces := Army{Terrain: c.terrain, Units: []Unit{{"Vagha", 12}, {"Amazons", 8}}}
			got, err := Points(forces)
			if err != nil || !maps.Equal(got, c.want) {
				t.Fatalf("got points %v (%v), want %v", got, err, c.want)
			}
			spend := Spend{Own: map[string]Health{"vagha": 3}}
			s, _ := mustApply(t, recruitingState(t, nil), Event{Kind: KindRecruit, Player: "chris", ArmyName: "reserves", Forces: &forces, Spend: &spend})
			if s.Pool["chris"] != 60-3 {
				t.Errorf("got pool %d, want 57", s.Pool["chris"])
			}
		})
	}
}

// TestAnArmyRecruitsOnceACycleWhateverTheSpellingOfItsName: "All
// recruiting occurs by army" and "Recruiting points may not be saved for
// future rounds of recruiting" (source, section 7): the horde that
// recruited as "horde" does not recruit again as "Horde". Campaigns
// recorded before replay such a second recruit with a warning.
func TestAnArmyRecruitsOnceACycleWhateverTheSpellingOfItsName(t *testing.T) {
	forces := chrisArmy("highland")
	spend := Spend{Own: map[string]Health{"vagha": 6}}
	rec := func(army string) Event {
		return Event{Kind: KindRecruit, Player: "chris", ArmyName: army, Forces: &forces, Spend: &spend}
	}
	s, _ := mustApply(t, recruitingState(t, nil), rec("horde"))
	for _, name := range []string{"horde", "Horde", " HORDE ", "horde\t"} {
		t.Run(fmt.Sprintf("%q after horde", name), func(t *testing.T) {
			if _, _, err := s.Apply(rec(name)); err == nil || !strings.Contains(err.Error(), "already recruited") {
				t.Errorf("got %v, want it refused: the horde already recruited", err)
			}
		})
	}
	if _, _, err := s.Apply(rec("home")); err != nil {
		t.Errorf("another army: %v", err)
	}
	n, _, err := s.Replay(rec("Horde"))
	if err != nil || n.Pool["chris"] != 60-12 || len(n.Warnings) != 1 {
		t.Errorf("replaying an older campaign's Horde after horde: got pool %d, warnings %q (%v); want 48 and one warning", n.Pool["chris"], n.Warnings, err)
	}
	if _, _, err := s.Replay(rec("horde")); err == nil {
		t.Error("replaying the same spelling twice, which older versions refused too: got no error")
	}
}

// TestRecruitSumsDoNotWrapRound: "All recruited units and items are taken
// from the appropriate player's recruiting pool" (source, section 7): a
// spend whose sums pass the largest number wraps round to a negative total
// that the pool would pay by growing.
func TestRecruitSumsDoNotWrapRound(t *testing.T) {
	const most = Health(math.MaxInt)
	cases := []struct {
		name   string
		forces Army
		spend  Spend
	}{
		{"one race under two spellings", chrisArmy("highland"),
			Spend{Own: map[string]Health{"Vagha": most, "vagha": 2}}},
		{"points of one race converted under two spellings", chrisArmy("highland"),
			Spend{Converted: []Conversion{{From: map[string]Health{"Vagha": most, "vagha": most, "mohrel": 4}, Race: "feral", Health: 1}}}},
		{"the recruits of two races", Army{Terrain: "highland", Units: []Unit{{"vagha", 4}}, Bonus: map[string]Health{"vagha": most, "mohrel": most}},
			Spend{Own: map[string]Health{"vagha": most, "mohrel": 2}}},
		{"the points of two conversions", Army{Terrain: "highland", Units: []Unit{{"vagha", 4}}, Bonus: map[string]Health{"vagha": most, "mohrel": most}},
			Spend{Converted: []Conversion{{From: map[string]Health{"vagha": most}, Race: "feral", Health: 1}, {From: map[string]Health{"mohrel": most}, Race: "feral", Health: 1}}}},
	}
	s := recruitingState(t, nil)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, _, err := s.Apply(Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &c.forces, Spend: &c.spend})
			if err == nil || !strings.Contains(err.Error(), "beyond") {
				t.Errorf("got pool %d, error %v; want a refusal (beyond what a counter holds)", n.Pool["chris"], err)
			}
		})
	}
}
