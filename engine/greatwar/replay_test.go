package greatwar

import (
	"encoding/json"
	"reflect"
	"testing"
)

// This file uses only what the events of campaigns stored before rules
// versions could hold: setups without "rules_version". A ledger replays
// such events and refuses the whole database when one gives other effects
// than the ones recorded with it, so they must keep giving those.

// replayJSON applies stored events (JSON, as a ledger keeps them) from an
// empty campaign and returns the state and the effects of the last one.
func replayJSON(t *testing.T, events ...string) (State, []Effect) {
	t.Helper()
	var s State
	var eff []Effect
	for i, raw := range events {
		var e Event
		if err := json.Unmarshal([]byte(raw), &e); err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		var err error
		if s, eff, err = s.Apply(e); err != nil {
			t.Fatalf("event %d %s: %v", i+1, raw, err)
		}
	}
	return s, eff
}

// storedSetup is a setup of the original rules: no rules_version.
const storedSetup = `{"kind":"setup","players":[
	{"name":"kate","faction":"knights","gold":20,"army":[{"name":"Standard Bearer","cost":10,"faction":"knights","unique":true},{"name":"Swordsmen","cost":4,"faction":"knights"},{"name":"Swordsmen","cost":4,"faction":"knights"}]},
	{"name":"eli","faction":"elves","gold":20},
	{"name":"oscar","faction":"orcs","gold":20},
	{"name":"ned","faction":"undead","gold":3}]}`

// TestStoredEventsReplayWithTheirRecordedEffects: each case is a stored
// campaign whose last event the fixes of Rules1 would treat otherwise;
// the effects are the ones the code before rules versions recorded (run
// against it), which Verify compares on every opening of the database.
func TestStoredEventsReplayWithTheirRecordedEffects(t *testing.T) {
	cases := []struct {
		name   string
		events []string
		want   []Effect
	}{
		{"a death of one of two wounded Swordsmen records only the unit", []string{storedSetup,
			`{"kind":"wound","player":"kate","unit":"Swordsmen","amount":2}`,
			`{"kind":"death","player":"kate","unit":"Swordsmen"}`},
			[]Effect{{"kate", "unit:Swordsmen", -1, "killed"}}},
		{"a unique flagged in one order only is bought by both", []string{storedSetup,
			`{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Ceryx Jade","cost":6,"unique":true}]},{"player":"eli","items":[{"name":"Ceryx Jade","cost":6}]}]}`},
			[]Effect{{"kate", "gold", -6, "bought Ceryx Jade"}, {"kate", "unit:Ceryx Jade", 1, "bought Ceryx Jade"},
				{"eli", "gold", -6, "bought Ceryx Jade"}, {"eli", "unit:Ceryx Jade", 1, "bought Ceryx Jade"}}},
		{"two Familiars flagged unique start a bidding war", []string{storedSetup,
			`{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Familiar","cost":2,"unique":true}]},{"player":"eli","items":[{"name":"Familiar","cost":2,"unique":true}]}]}`},
			[]Effect{{"kate", "gold", -2, "lost on contested Familiar"}, {"eli", "gold", -2, "lost on contested Familiar"}}},
		{"a Resurrection naming no player", []string{storedSetup,
			`{"kind":"death","player":"kate","unit":"Standard Bearer"}`,
			`{"kind":"resurrect","unit":"Standard Bearer"}`},
			[]Effect{{"", "unit:Standard Bearer", 1, "resurrected"}}},
		{"a Resurrection for another player", []string{storedSetup,
			`{"kind":"death","player":"kate","unit":"Standard Bearer"}`,
			`{"kind":"resurrect","player":"oscar","unit":"Standard Bearer"}`},
			[]Effect{{"oscar", "unit:Standard Bearer", 1, "resurrected"}}},
		{"a second playing order in a turn", []string{storedSetup,
			`{"kind":"order","order":["kate","eli","oscar","ned"]}`,
			`{"kind":"order","order":["ned","oscar","eli","kate"]}`},
			nil},
		{"a second spelling of a unit in play", []string{storedSetup,
			`{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"swordsmen","cost":4,"faction":"knights"}]}]}`},
			[]Effect{{"kate", "gold", -4, "bought swordsmen"}, {"kate", "unit:swordsmen", 1, "bought swordsmen"}}},
		{"a starting army whose points wrap round", []string{`{"kind":"setup","players":[
			{"name":"kate","faction":"knights","army":[{"name":"Swordsmen","cost":9223372036854775807,"faction":"knights"},{"name":"Peasants","cost":9223372036854775807,"faction":"knights"}]},
			{"name":"oscar","faction":"orcs"}]}`},
			[]Effect{{"kate", "unit:Swordsmen", 1, "starting army"}, {"kate", "unit:Peasants", 1, "starting army"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := replayJSON(t, c.events...)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got effects %v, want the recorded %v", got, c.want)
			}
		})
	}
}

// TestRuinsRemovesTheSameSpellingOnEveryReplay: a campaign of the original
// rules may hold a Standard Bearer under two spellings; exchanging one for
// Ruins ("the Knights player may once exchange a Standard Bearer against a
// Ruins-terrain", source) must record the same effect on every replay, or
// the ledger reads the database as corrupt one opening in two.
func TestRuinsRemovesTheSameSpellingOnEveryReplay(t *testing.T) {
	s, _ := replayJSON(t, `{"kind":"setup","players":[
		{"name":"kate","faction":"knights","gold":10,"army":[{"name":"standard bearer","cost":10,"faction":"knights"}]},
		{"name":"oscar","faction":"orcs"}]}`,
		`{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Standard Bearer","cost":1,"faction":"knights"}]}]}`)
	if len(s.Units["kate"]) != 2 {
		t.Fatalf("want two spellings in play, got %v", s.Units["kate"])
	}
	want := []Effect{{"kate", "unit:Standard Bearer", -1, "exchanged for Ruins"}}
	for i := range 64 {
		_, got := apply(t, s, Event{Kind: KindRuins, Player: "kate"})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("replay %d: got %v, want %v (the first spelling in sorted order)", i+1, got, want)
		}
	}
}
