package greatwar

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// fourPlayers is a campaign of the current rules with two factions a
// side: kate (Knights) and eli (Elves) good, oscar (Orcs) and ned
// (Undead) evil.
func fourPlayers(t *testing.T) State {
	t.Helper()
	s, _ := apply(t, State{}, Event{Kind: KindSetup, RulesVersion: CurrentRules, Players: []PlayerSetup{
		{Name: "kate", Faction: "knights", Gold: 4}, {Name: "eli", Faction: "elves", Gold: 5},
		{Name: "oscar", Faction: "orcs"}, {Name: "ned", Faction: "undead"},
	}})
	return s
}

func conquest(homeland, by string) Event {
	return Event{Kind: KindConquest, Homeland: homeland, By: by}
}

// TestVictoryWhenEveryEnemyHomelandIsConquered: "It is the objective of
// the game to conquer the homlands of all enemy factions. Factions of the
// same alignment play as a team - they can share the task of conquering
// the enemy homlands between them." (source, The Set-Up). The text gives
// no other end: the winner is the alignment that conquered them all.
func TestVictoryWhenEveryEnemyHomelandIsConquered(t *testing.T) {
	cases := []struct {
		name    string
		events  []Event
		winner  Alignment
		wonTurn int
		players []string
	}{
		{"no conquest: nobody has won", nil, "", 0, nil},
		{"one of two enemy homelands conquered: nobody has won yet",
			[]Event{conquest("kate", "oscar")}, "", 0, nil},
		{"a homeland conquered on each side: nobody has won",
			[]Event{conquest("kate", "oscar"), conquest("ned", "eli")}, "", 0, nil},
		{"one evil player conquers both good homelands: the evil team wins",
			[]Event{conquest("kate", "oscar"), {Kind: KindEndTurn}, conquest("eli", "oscar")}, Evil, 2, []string{"oscar", "ned"}},
		{"the evil players share the task: the evil team wins",
			[]Event{conquest("kate", "oscar"), conquest("eli", "ned")}, Evil, 1, []string{"oscar", "ned"}},
		{"the good players conquer both evil homelands: the good team wins",
			[]Event{conquest("oscar", "kate"), {Kind: KindEndTurn}, {Kind: KindEndTurn}, conquest("ned", "eli")}, Good, 3, []string{"kate", "eli"}},
		{"the first team to conquer every enemy homeland stays the winner",
			[]Event{conquest("kate", "oscar"), conquest("oscar", "eli"), conquest("eli", "ned"), {Kind: KindEndTurn}, conquest("ned", "kate")}, Evil, 1, []string{"oscar", "ned"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fourPlayers(t)
			for _, e := range c.events {
				s, _ = apply(t, s, e)
			}
			if s.Winner != c.winner || s.WonTurn != c.wonTurn {
				t.Errorf("got winner %q in turn %d, want %q in turn %d", s.Winner, s.WonTurn, c.winner, c.wonTurn)
			}
			if got := s.Winners(); !reflect.DeepEqual(got, c.players) {
				t.Errorf("got winning players %v, want %v", got, c.players)
			}
		})
	}
}

// TestVictoryInAStoredCampaign: a campaign stored before victory was
// recorded replays its conquests with the effects recorded with them and
// now knows its winner; the state's JSON says it.
func TestVictoryInAStoredCampaign(t *testing.T) {
	s, eff := replayJSON(t, storedSetup,
		`{"kind":"conquest","homeland":"kate","by":"oscar"}`,
		`{"kind":"conquest","homeland":"eli","by":"ned"}`)
	want := []Effect{{"eli", "gold", -20, "homeland conquered by ned"}, {"ned", "gold", 20, "conquered the homeland of eli"}}
	if !reflect.DeepEqual(eff, want) {
		t.Errorf("got effects %v, want the recorded %v", eff, want)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"winner":"evil","won_turn":1`) {
		t.Errorf("state JSON %s: want \"winner\":\"evil\",\"won_turn\":1", data)
	}
}

// TestAllConquered is the predicate of victory: every homeland of an
// alignment conquered, and there is one at least.
func TestAllConquered(t *testing.T) {
	players := []Player{{Name: "kate", Alignment: Good}, {Name: "eli", Alignment: Good}, {Name: "oscar", Alignment: Evil}}
	cases := []struct {
		name      string
		conquered []string
		a         Alignment
		want      bool
	}{
		{"none conquered", nil, Good, false},
		{"one of two", []string{"kate"}, Good, false},
		{"both good homelands", []string{"kate", "eli"}, Good, true},
		{"the only evil homeland", []string{"oscar"}, Evil, true},
		{"good homelands do not make the evil lose", []string{"kate", "eli"}, Evil, false},
		{"an alignment with no player has lost nothing", nil, Alignment("neutral"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := map[string]Conquest{}
			for _, p := range c.conquered {
				q[p] = Conquest{By: "x"}
			}
			if got := AllConquered(players, q, c.a); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
