package esfah

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestReplayAcceptsWhatOlderVersionsRecorded: events recorded before the
// stricter rules (a padded player name, a capture with no player, a half
// rate rounded up per conversion, natives changing the text's table) are
// refused by Apply but replayed with a warning and the effects they had.
func TestReplayAcceptsWhatOlderVersionsRecorded(t *testing.T) {
	replay := func(s State, e Event, warnings int) (State, []Effect) {
		t.Helper()
		if _, _, err := s.Apply(e); err == nil {
			t.Errorf("Apply %s: got no error, want the new rule to refuse it", e.Kind)
		}
		n, eff, err := s.Replay(e)
		if err != nil {
			t.Fatalf("Replay %s: %v", e.Kind, err)
		}
		if len(n.Warnings) != len(s.Warnings)+warnings {
			t.Errorf("Replay %s: got warnings %q, want %d more than %q", e.Kind, n.Warnings, warnings, s.Warnings)
		}
		return n, eff
	}
	s, _ := replay(State{}, Event{Kind: KindSetup, Players: []string{"chris", " dana"}, TotalHealth: 120, Natives: map[string]string{"vagha": "coastland"}}, 2)
	if s.Natives != nil {
		t.Errorf("natives kept for new events: got %v, want none (vagha: coastland changes the table)", s.Natives)
	}
	for range 5 {
		s, _ = mustApply(t, s, Event{Kind: KindEndRound})
	}
	s, _ = mustApply(t, s, Event{Kind: KindExpand, Terrain: "T1"})
	s, _ = mustApply(t, s, Event{Kind: KindCapture, Player: "chris", Terrain: "T1"})
	s, eff := replay(s, Event{Kind: KindCapture, Terrain: "T1"}, 1)
	if want := []Effect{{"", "terrain", 1, "capture T1"}, {"chris", "terrain", -1, "lost T1"}}; !reflect.DeepEqual(eff, want) {
		t.Errorf("capture with no player: got effects %v, want %v (as recorded)", eff, want)
	}
	forces := Army{Terrain: "flatland", Units: []Unit{{"Vagha", 12}, {"Mohrel", 17}}}
	split := Spend{Converted: []Conversion{
		{From: map[string]Health{"vagha": 3}, Race: "feral", Health: 2},
		{From: map[string]Health{"mohrel": 5}, Race: "feral", Health: 3},
	}}
	s, _ = replay(s, Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &forces, Spend: &split}, 1)
	coast := Army{Terrain: "coastland", Units: []Unit{{"vagha", 8}}}
	doubled := Spend{Own: map[string]Health{"vagha": 4}}
	s, _ = replay(s, Event{Kind: KindRecruit, Player: "chris", ArmyName: "coast", Forces: &coast, Spend: &doubled}, 1)
	if s.Pool["chris"] != 60-5-4 {
		t.Errorf("chris's pool: got %d, want 51", s.Pool["chris"])
	}
	tooMuch := Spend{Converted: []Conversion{{From: map[string]Health{"vagha": 3}, Race: "feral", Health: 3}}}
	if _, _, err := s.Replay(Event{Kind: KindRecruit, Player: "chris", ArmyName: "third", Forces: &forces, Spend: &tooMuch}); err == nil || !strings.Contains(err.Error(), "half rate") {
		t.Errorf("a recruit older versions refused too: got %v, want it refused on replay", err)
	}
}

// TestReplayKeepsMisspeltRacesAndNegativeTotals: events older versions
// recorded with a race the campaign does not know (a conversion, bonus
// recruits, an army's or the setup's natives, a death spelt "Vagah") or
// a negative Horde maneuver total (section 3) are refused by Apply and
// replayed with one warning and the effects they had; the misspelt race
// does not become known for new events.
func TestReplayKeepsMisspeltRacesAndNegativeTotals(t *testing.T) {
	rec := func(forces Army, spend Spend) Event {
		return Event{Kind: KindRecruit, Player: "chris", ArmyName: "horde", Forces: &forces, Spend: &spend}
	}
	src := "recruited by army horde"
	cases := []struct {
		name  string
		state func(*testing.T) State
		event Event
		want  []Effect
		order []string
	}{
		{"setup natives making Vagah native to the highlands", func(*testing.T) State { return State{} },
			Event{Kind: KindSetup, Players: []string{"chris", "dana"}, TotalHealth: 120, Natives: map[string]string{"Vagah": "highland"}},
			[]Effect{{"chris", "pool", 60, "recruiting pool"}, {"dana", "pool", 60, "recruiting pool"}}, nil},
		{"4 Vagah bought with 3 Vagha and 5 Mohrel points", func(t *testing.T) State { return recruitingState(t, nil) },
			rec(Army{Terrain: "flatland", Units: []Unit{{"Vagha", 12}, {"Mohrel", 17}}},
				Spend{Converted: []Conversion{{From: map[string]Health{"vagha": 3, "mohrel": 5}, Race: "Vagah", Health: 4}}}),
			[]Effect{{"chris", "pool", -4, src + " (half rate)"}, {"chris", "health:vagah", 4, src + " (half rate)"}}, nil},
		{"3 bonus Vagah recruited", func(t *testing.T) State { return recruitingState(t, nil) },
			rec(Army{Terrain: "flatland", Units: []Unit{{"Vagha", 12}}, Bonus: map[string]Health{"Vagah": 3}}, Spend{Own: map[string]Health{"Vagah": 3}}),
			[]Effect{{"chris", "pool", -3, src}, {"chris", "health:vagah", 3, src}}, nil},
		{"an army's natives making Vagah native to the highlands", func(t *testing.T) State { return recruitingState(t, nil) },
			rec(Army{Terrain: "highland", Units: []Unit{{"Vagah", 8}}, Natives: map[string]string{"Vagah": "highland"}}, Spend{Own: map[string]Health{"vagah": 4}}),
			[]Effect{{"chris", "pool", -4, src}, {"chris", "health:vagah", 4, src}}, nil},
		{"2 health of Vagah killed", func(t *testing.T) State { return recruitingState(t, nil) },
			Event{Kind: KindDeath, Player: "chris", Race: "Vagah", Health: 2},
			[]Effect{{"chris", "health:vagah", -2, "killed"}}, nil},
		{"a Horde maneuver total of -1", func(t *testing.T) State { return recruitingState(t, nil) },
			Event{Kind: KindOrder, Maneuvers: map[string]int{"chris": -1, "dana": 2}}, nil, []string{"dana", "chris"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.state(t)
			if _, _, err := s.Apply(c.event); err == nil {
				t.Fatal("Apply: got no error, want the new rule to refuse it")
			}
			n, eff, err := s.Replay(c.event)
			if err != nil {
				t.Fatalf("Replay: %v", err)
			}
			if len(n.Warnings) != 1 {
				t.Errorf("got warnings %q, want 1", n.Warnings)
			}
			if !reflect.DeepEqual(eff, c.want) {
				t.Errorf("got effects %v, want %v (as recorded)", eff, c.want)
			}
			if !reflect.DeepEqual(n.Order, c.order) {
				t.Errorf("got order %v, want %v", n.Order, c.order)
			}
			if len(n.Players) == 0 {
				return
			}
			if _, _, err := n.Apply(Event{Kind: KindDeath, Player: "chris", Race: "vagah", Health: 1}); !errors.Is(err, ErrUnknownRace) {
				t.Errorf("a new death of vagah after the replay: got %v, want it refused (races %v, natives %v)", err, n.Races, n.Natives)
			}
		})
	}
}
