package esfah

import (
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
