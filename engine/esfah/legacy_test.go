package esfah

import (
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
