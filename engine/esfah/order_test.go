package esfah

import (
	"strings"
	"testing"
)

// TestOrderRefusesNegativeManeuverTotals: "All players roll their Horde
// armies and total maneuver results, then sit around the battlefield in
// order from most maneuver results to least" (source, section 3): a total
// counts the maneuver results rolled, none or more.
func TestOrderRefusesNegativeManeuverTotals(t *testing.T) {
	s, _ := mustApply(t, State{}, Event{Kind: KindSetup, Players: []string{"ann", "bob", "cy"}, TotalHealth: 120})
	cases := []struct {
		name, event string
		err         string // "" when accepted
	}{
		{"a Horde rolling no maneuver", `{"kind":"order","maneuvers":{"ann":0,"bob":3,"cy":2}}`, ""},
		{"a negative total", `{"kind":"order","maneuvers":{"ann":-1,"bob":3,"cy":2}}`, "Horde maneuver total of ann is -1"},
		{"two negative totals", `{"kind":"order","maneuvers":{"ann":-1,"bob":-4,"cy":2}}`, "ann is -1; Horde maneuver total of bob is -4"},
		{"a negative reroll of the tied", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3},"rerolls":[{"bob":2,"cy":-1}]}`, "reroll 1 of cy is -1"},
		{"a reroll of none against one", `{"kind":"order","maneuvers":{"ann":5,"bob":3,"cy":3},"rerolls":[{"bob":0,"cy":1}]}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := event(t, c.event)
			n, _, err := s.Apply(e)
			_, _, serr := SeatPlayers(e.Maneuvers, e.Rerolls)
			if c.err == "" {
				if err != nil || serr != nil {
					t.Errorf("got %v and SeatPlayers %v, want it accepted", err, serr)
				}
				return
			}
			for what, err := range map[string]error{"Apply": err, "SeatPlayers": serr} {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "never negative") {
					t.Errorf("%s: got %v (order %v), want an error saying %q", what, err, n.Order, c.err)
				}
			}
		})
	}
}
