package diskwars

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"tableref/engine"
)

// TestBookActivationRound is the example of "Ordre d'activation":
// Séverine, Stéphane and Pascal sit in that order; Pascal is first; each
// has nine disks. Two full rounds, then Pascal activates his last three,
// Séverine none (which ends her phase with three disks left) and Stéphane
// his last two: the phase is over.
func TestBookActivationRound(t *testing.T) {
	players := []string{"Séverine", "Stéphane", "Pascal"}
	p, err := NewActivationPhase(players, "Pascal", map[string]int{"Séverine": 9, "Stéphane": 9, "Pascal": 9})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		player string
		n      int
	}{
		{"Pascal", 3}, {"Séverine", 3}, {"Stéphane", 3},
		{"Pascal", 3}, {"Séverine", 3}, {"Stéphane", 3},
		{"Pascal", 3}, {"Séverine", 0}, {"Stéphane", 2},
	}
	for k, s := range steps {
		if cur, _ := p.Current(); cur != s.player {
			t.Fatalf("step %d: got %s to play, want %s", k+1, cur, s.player)
		}
		if p, err = p.Activate(s.player, s.n); err != nil {
			t.Fatalf("step %d: %v", k+1, err)
		}
	}
	if !p.Over() {
		t.Errorf("over: got false, want true")
	}
	if p.Left("Séverine") != 3 || !p.Ended("Séverine") {
		t.Errorf("Séverine: got %d left (ended %v), want 3 left and ended", p.Left("Séverine"), p.Ended("Séverine"))
	}
	if len(p.History()) != 9 {
		t.Errorf("history: got %d activations, want 9", len(p.History()))
	}
	// "Au tour suivant, le nouveau premier joueur est celui qui se trouve
	// à la gauche du premier joueur actuel."
	if next, _ := NextFirstPlayer(players, "Pascal"); next != "Séverine" {
		t.Errorf("next first player: got %s, want Séverine", next)
	}
}

func TestActivationRules(t *testing.T) {
	players := []string{"a", "b"}
	p, _ := NewActivationPhase(players, "a", map[string]int{"a": 5, "b": 4})
	for _, tc := range []struct {
		name   string
		player string
		n      int
	}{
		{"out of turn", "b", 3},
		{"more than three", "a", 4},
		{"negative", "a", -1},
	} {
		if _, err := p.Activate(tc.player, tc.n); !errors.Is(err, ErrActivation) {
			t.Errorf("%s: got %v, want ErrActivation", tc.name, err)
		}
	}
	// a activates 2: his phase ends; b then plays every turn.
	p, _ = p.Activate("a", 2)
	p, _ = p.Activate("b", 3)
	if cur, _ := p.Current(); cur != "b" {
		t.Errorf("after a ended: got %s to play, want b", cur)
	}
	if _, err := p.Activate("b", 3); !errors.Is(err, ErrActivation) {
		t.Errorf("b with one disk left activating 3: got %v, want ErrActivation", err)
	}
	p, _ = p.Activate("b", 1)
	if !p.Over() {
		t.Errorf("over: got false, want true")
	}
	if _, err := NewActivationPhase(players, "c", nil); err == nil {
		t.Errorf("unknown first player: got no error")
	}
}

func TestFreezeSkipsOneTurn(t *testing.T) {
	// Congélation: the frozen player passes his turn of the next round
	// ("lors du prochain tour de table") but his phase does not end.
	p, _ := NewActivationPhase([]string{"a", "b"}, "a", map[string]int{"a": 9, "b": 9})
	p, _ = p.Activate("a", 3)
	p, _ = p.Freeze("b")
	if cur, _ := p.Current(); cur != "b" {
		t.Fatalf("after freezing b in round 1: got %s to play, want b", cur)
	}
	p, _ = p.Activate("b", 3)
	p, _ = p.Activate("a", 3)
	if cur, _ := p.Current(); cur != "a" || p.Round() != 3 {
		t.Fatalf("after a's turn of round 2: got %s to play in round %d, want a in round 3", cur, p.Round())
	}
	p, _ = p.Activate("a", 3)
	if cur, _ := p.Current(); cur != "b" || p.Ended("b") || p.Left("b") != 6 {
		t.Errorf("got %s to play (b ended %v, %d left), want b, not ended, 6 left", cur, p.Ended("b"), p.Left("b"))
	}
}

func TestAvailableFromTable(t *testing.T) {
	// "Règle spéciale": a disk another lies on cannot be activated, mine or
	// the enemy's; activated disks neither.
	act := fighter("act", "a", 50, 0, 2, 0, 1, 1, 1)
	act.Activated = true
	l := layoutOf(
		fighter("free", "a", 0, 0, 2, 0, 1, 1, 1),
		fighter("under", "a", 10, 0, 2, 0, 1, 1, 1),
		fighter("over", "b", 12, 0, 2, 1, 1, 1, 1),
		act,
	)
	got := AvailableFrom(engine.NewTable(l))
	if want := map[string]int{"a": 1, "b": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestCongelationNextRound: "Congélation — Effet : l'adversaire ciblé ne
// pourra pas activer ses 3 Disks lors du prochain tour de table (il passe
// son tour mais cela ne termine pas sa phase d'activation pour autant). Un
// joueur ne peut pas être congelé 2 fois de suite." A "tour de table" is a
// round ("Tous les joueurs ont activé trois Disks et un nouveau tour de
// table a lieu"): the target passes his turn of the round after the one the
// spell is cast in, whether or not he has played in that one. The freeze
// step follows the turn it was cast in, whose player cast it: "l'adversaire
// ciblé" is never that player. Pascal, Séverine, Stéphane play in
// that order (the book's table).
func TestCongelationNextRound(t *testing.T) {
	for _, tc := range []struct {
		name, played string
		current      string
		round        int
		err          string // "" for a legal history
	}{
		{name: "cast by Pascal in round 1: Séverine still plays round 1", played: "Pascal=3,Séverine=frozen", current: "Séverine", round: 1},
		{name: "she passes round 2", played: "Pascal=3,Séverine=frozen,Séverine=3,Stéphane=3,Pascal=3", current: "Stéphane", round: 2},
		{name: "cast by Stéphane, last in round 1: she passes round 2", played: "Pascal=3,Séverine=3,Stéphane=3,Séverine=frozen,Pascal=3", current: "Stéphane", round: 2},
		{name: "cast by Stéphane at the end of round 1 on Pascal: Pascal passes at once", played: "Pascal=3,Séverine=3,Stéphane=3,Pascal=frozen", current: "Séverine", round: 2},
		{name: "frozen again for round 3 after passing round 2: twice in a row", played: "Pascal=3,Séverine=frozen,Séverine=3,Stéphane=3,Pascal=3,Séverine=frozen", err: "twice in a row"},
		{name: "frozen again for round 2 before passing it", played: "Pascal=3,Séverine=frozen,Séverine=3,Stéphane=3,Séverine=frozen", err: "already frozen"},
		{name: "frozen for round 4 after playing round 3: not in a row", played: "Pascal=3,Séverine=frozen,Séverine=3,Stéphane=3,Pascal=3,Stéphane=3,Pascal=3,Séverine=frozen", current: "Séverine", round: 3},
		{name: "Pascal freezing himself in his own turn: the spell targets an opponent", played: "Pascal=3,Pascal=frozen", err: "cannot freeze himself"},
		{name: "Séverine freezing herself after her turn, before any other", played: "Pascal=3,Séverine=3,Séverine=frozen", err: "cannot freeze himself"},
		{name: "the first player frozen before any turn: cast in his own first turn", played: "Pascal=frozen", err: "cannot freeze himself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := StatusOfActivation(engine.NewTable(bookActivationLayout(nil)), mustSteps(t, tc.played), ActivationOptions{})
			switch {
			case tc.err != "":
				if err == nil || !errors.Is(err, ErrActivation) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("got %v, want an ErrActivation saying %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case st.Current != tc.current || st.Round != tc.round:
				t.Errorf("got %s to play in round %d, want %s in round %d (history %+v)", st.Current, st.Round, tc.current, tc.round, st.History)
			}
		})
	}
}
