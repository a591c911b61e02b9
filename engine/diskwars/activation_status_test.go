package diskwars

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// bookActivationLayout is the table of the example of "Ordre
// d'activation": Séverine, Stéphane and Pascal seated in that order,
// Pascal first player, nine disks each, side by side, with activated[p]
// of each player's disks carrying an activation marker.
func bookActivationLayout(activated map[string]int) models.Layout {
	l := layoutOf()
	l.Players = []string{"Séverine", "Stéphane", "Pascal"}
	l.FirstPlayer = "Pascal"
	for row, p := range l.Players {
		for k := range 9 {
			d := fighter(fmt.Sprintf("%c%d", strings.ToLower(p)[0], k+1), p, float64(10*k), float64(20*row), 2.5, 0, 1, 1, 2)
			d.Activated = k < activated[p]
			l.Disks = append(l.Disks, d)
		}
	}
	return l
}

func mustSteps(t *testing.T, s string) []ActivationStep {
	t.Helper()
	steps, err := ParseActivationSteps(s)
	if err != nil {
		t.Fatalf("ParseActivationSteps(%q): %v", s, err)
	}
	return steps
}

// TestBookActivationStatus follows the example of "Ordre d'activation"
// (shared/seeds/004, "Déroulement de la partie") step by step, with the
// activation markers on the table as they would be. The book says
// Stéphane activates "ses deux derniers Disks" in round 3; with nine disks
// each he then has one left, and his phase ends because he activated
// fewer than three.
func TestBookActivationStatus(t *testing.T) {
	for _, tc := range []struct {
		name      string
		markers   map[string]int
		played    string
		current   string
		round     int
		over      bool
		lastRound int
		left      map[string]int
		why       map[string]string
	}{
		{
			name: "the phase begins: Pascal, the first player, activates three", markers: nil, played: "",
			current: "Pascal", round: 1, lastRound: 3,
			left: map[string]int{"Pascal": 9, "Séverine": 9, "Stéphane": 9},
		},
		{
			name:    "after two rounds and Pascal's last three disks: Séverine to play",
			markers: map[string]int{"Pascal": 9, "Séverine": 6, "Stéphane": 6},
			played:  "Pascal=3, Séverine=3, Stéphane=3, Pascal=3, Séverine=3, Stéphane=3, Pascal=3",
			current: "Séverine", round: 3, lastRound: 3,
			left: map[string]int{"Pascal": 0, "Séverine": 3, "Stéphane": 3},
			why:  map[string]string{"Pascal": "activated the last 3 disks in round 3"},
		},
		{
			name:    "Séverine activates none and Stéphane two: the phase is over",
			markers: map[string]int{"Pascal": 9, "Séverine": 6, "Stéphane": 8},
			played:  "Pascal=3,Séverine=3,Stéphane=3,Pascal=3,Séverine=3,Stéphane=3,Pascal=3,Séverine=0,Stéphane=2",
			current: "", round: 4, over: true, lastRound: 3,
			left: map[string]int{"Pascal": 0, "Séverine": 3, "Stéphane": 1},
			why: map[string]string{"Pascal": "activated the last 3 disks in round 3",
				"Séverine": "activated 0 in round 3, fewer than three, with 3 left",
				"Stéphane": "activated 2 in round 3, fewer than three, with 1 left"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := StatusOfActivation(engine.NewTable(bookActivationLayout(tc.markers)), mustSteps(t, tc.played), ActivationOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if st.Current != tc.current || st.Round != tc.round || st.Over != tc.over || st.LastRound != tc.lastRound {
				t.Errorf("got current %q round %d over %v last round %d, want %q %d %v %d",
					st.Current, st.Round, st.Over, st.LastRound, tc.current, tc.round, tc.over, tc.lastRound)
			}
			if want := []string{"Pascal", "Séverine", "Stéphane"}; !reflect.DeepEqual(st.Order, want) {
				t.Errorf("order: got %v, want %v", st.Order, want)
			}
			if st.NextFirstPlayer != "Séverine" {
				t.Errorf("next first player: got %q, want Séverine", st.NextFirstPlayer)
			}
			for _, p := range st.Standing {
				if p.Left != tc.left[p.Player] || p.Why != tc.why[p.Player] || p.Ended != (tc.why[p.Player] != "") {
					t.Errorf("%s: got left %d ended %v why %q, want left %d why %q", p.Player, p.Left, p.Ended, p.Why, tc.left[p.Player], tc.why[p.Player])
				}
			}
			now := 0
			for _, d := range st.Disks {
				if d.Now {
					now++
				}
			}
			if want := tc.left[tc.current]; now != want {
				t.Errorf("disks that may be activated now: got %d, want %d", now, want)
			}
			if len(st.Warnings) != 0 {
				t.Errorf("warnings: got %v, want none", st.Warnings)
			}
		})
	}
}

func TestActivationStatusReasons(t *testing.T) {
	l := layoutOf(
		fighter("a1", "a", 0, 0, 2.5, 0, 1, 1, 2),
		fighter("a2", "a", 3, 0, 2.5, 0, 1, 1, 2), // a2 lies on a1: a1 is blocked
		fighter("b1", "b", 40, 0, 2.5, 0, 1, 1, 2),
		fighter("c1", "c", 80, 0, 2.5, 0, 1, 1, 2),
	)
	l.Disks[1].Z = 1
	l.Disks[2].Activated = true
	l.Players, l.FirstPlayer = []string{"a", "b"}, "a"
	st, err := StatusOfActivation(engine.NewTable(l), nil, ActivationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a1": "it is blocked by a2",
		"a2": "",
		"b1": "it has an activation marker; the activation phase of b is over",
		"c1": "its owner c is not among the players",
	}
	for _, d := range st.Disks {
		got := strings.Join(d.Reasons, "; ")
		if got != want[d.Disk] || d.MayActivate != (want[d.Disk] == "") {
			t.Errorf("%s: got may %v, reasons %q, want %q", d.Disk, d.MayActivate, got, want[d.Disk])
		}
	}
	// b has no disk he can activate: his phase is over from the start, and
	// a plays every turn.
	if st.Standing[1].Why != "no disk could be activated when the phase began" {
		t.Errorf("b: got %q", st.Standing[1].Why)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "c is not among the players") {
		t.Errorf("warnings: got %v", st.Warnings)
	}
}

func TestActivationStatusErrors(t *testing.T) {
	l := bookActivationLayout(map[string]int{"Pascal": 3})
	for _, tc := range []struct {
		name, played string
		opt          ActivationOptions
		illegal      bool
		want         string
	}{
		{"out of turn", "Séverine=3", ActivationOptions{}, true, "it is Pascal's turn"},
		{"an unknown player", "Paul=3", ActivationOptions{}, false, "not among the players"},
		{"frozen twice in a row", "Pascal=3,Séverine=frozen,Séverine=3,Stéphane=3,Pascal=0,Séverine=frozen", ActivationOptions{}, true, "twice in a row"},
		{"an unknown first player", "", ActivationOptions{FirstPlayer: "Paul"}, false, "not among the players"},
	} {
		_, err := StatusOfActivation(engine.NewTable(l), mustSteps(t, tc.played), tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrActivation) != tc.illegal {
			t.Errorf("%s: got %v, want an error saying %q (ErrActivation %v)", tc.name, err, tc.want, tc.illegal)
		}
	}
	noSeats := layoutOf(fighter("a1", "a", 0, 0, 2.5, 0, 1, 1, 2))
	if _, err := StatusOfActivation(engine.NewTable(noSeats), nil, ActivationOptions{}); err == nil || !strings.Contains(err.Error(), "no players") {
		t.Errorf("no players: got %v", err)
	}
}

func TestActivationStatusFreezeAndNames(t *testing.T) {
	// Congélation cast on Séverine during Pascal's turn of round 1: "ne
	// pourra pas activer ses 3 Disks lors du prochain tour de table (il
	// passe son tour mais cela ne termine pas sa phase d'activation pour
	// autant)". She plays round 1 and passes round 2 without ending her
	// phase. Names are matched without case or accents.
	l := bookActivationLayout(map[string]int{"Pascal": 3})
	st, err := StatusOfActivation(engine.NewTable(l), mustSteps(t, "pascal=3, severine=frozen"), ActivationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Current != "Séverine" || st.Round != 1 {
		t.Errorf("got %s in round %d, want Séverine in round 1", st.Current, st.Round)
	}
	if sev := st.Standing[1]; sev.Player != "Séverine" || sev.Ended || sev.Left != 9 || !sev.Frozen || sev.FrozenRound != 2 {
		t.Errorf("Séverine: got %+v, want not ended, 9 left, frozen for round 2", sev)
	}
	l = bookActivationLayout(map[string]int{"Pascal": 6, "Séverine": 3, "Stéphane": 3})
	st, err = StatusOfActivation(engine.NewTable(l), mustSteps(t, "pascal=3, severine=frozen, SEVERINE=3, stephane=3, Pascal=3"), ActivationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Current != "Stéphane" || st.Round != 2 {
		t.Errorf("got %s in round %d, want Stéphane in round 2", st.Current, st.Round)
	}
	if sev := st.Standing[1]; sev.Player != "Séverine" || sev.Ended || sev.Left != 6 || sev.Frozen {
		t.Errorf("Séverine: got %+v, want not ended, 6 left, no longer frozen", sev)
	}
	if h := st.History[4]; !h.Frozen || h.Player != "Séverine" || h.Round != 2 {
		t.Errorf("history: got %+v, want Séverine's frozen pass in round 2", h)
	}
	// Round 2 loses Séverine's three: the phase now ends in round 4.
	if st.LastRound != 4 {
		t.Errorf("last round: got %d, want 4", st.LastRound)
	}
	// A history longer than the markers on the table is worth a warning.
	st, err = StatusOfActivation(engine.NewTable(bookActivationLayout(nil)), mustSteps(t, "Pascal=3"), ActivationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "Pascal activated 3 disks, but only 0") {
		t.Errorf("warnings: got %v", st.Warnings)
	}
}

func TestParseActivationSteps(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []ActivationStep
		bad  bool
	}{
		{"", nil, false},
		{"Pascal=3", []ActivationStep{{Player: "Pascal", Count: 3}}, false},
		{" a = 0 ; b=frozen, c = Congélation ", []ActivationStep{{Player: "a"}, {Player: "b", Freeze: true}, {Player: "c", Freeze: true}}, false},
		{"Jean Paul=2,,", []ActivationStep{{Player: "Jean Paul", Count: 2}}, false},
		{"a=4", nil, true},
		{"a=-1", nil, true},
		{"a", nil, true},
		{"=3", nil, true},
		{"a=three", nil, true},
	} {
		got, err := ParseActivationSteps(tc.in)
		if (err != nil) != tc.bad || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseActivationSteps(%q): got %v, %v, want %v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func FuzzParseActivationSteps(f *testing.F) {
	for _, s := range []string{"", "Pascal=3,Séverine=0", "a=frozen;b=2", "=", "a==3", "a=3,=,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		steps, err := ParseActivationSteps(s)
		if err != nil {
			return
		}
		for _, st := range steps {
			if st.Player == "" || st.Count < 0 || st.Count > PerTurn || (st.Freeze && st.Count != 0) {
				t.Errorf("ParseActivationSteps(%q): bad step %+v", s, st)
			}
		}
	})
}

// TestSpentCreatureIsNotActivatable: a creature that has taken all its
// wounds is read as off the table by the rulings, and so cannot be
// activated either ("A ce moment précis le Disk est retiré du jeu et ne
// pourra plus revenir en jeu").
func TestSpentCreatureIsNotActivatable(t *testing.T) {
	spentOne := fighter("gone", "a", 0, 0, 2.5, 0, 1, 1, 2)
	spentOne.WoundsTaken = 5
	l := layoutOf(spentOne, fighter("b1", "b", 40, 0, 2.5, 0, 1, 1, 2))
	l.Players, l.FirstPlayer = []string{"a", "b"}, "a"
	if got := AvailableFrom(engine.NewTable(l)); got["a"] != 0 || got["b"] != 1 {
		t.Errorf("available: got %v, want a 0, b 1", got)
	}
	st, err := StatusOfActivation(engine.NewTable(l), nil, ActivationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range st.Disks {
		if d.Disk == "gone" && (d.MayActivate || !strings.Contains(strings.Join(d.Reasons, "; "), "taken all its wounds")) {
			t.Errorf("gone: may %v, reasons %v; want it refused as off the table", d.MayActivate, d.Reasons)
		}
	}
}
