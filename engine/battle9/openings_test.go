package battle9

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// lineupOn is the lineup of side s's units on the board of p.
func lineupOn(p Position, s Side) Lineup {
	l := Lineup{Race: p.Race(s).Name, Units: map[string]int{}}
	for sq := Square(0); sq < NumSquares; sq++ {
		if pc, ok := p.At(sq); ok && pc.Side == s {
			l.Units[pc.Unit.Name]++
		}
	}
	return l
}

// replaySetup places the units of the board of p through a Setup of the
// two lineups on it, the first side's army as player 1, trying at each
// turn the placer's remaining squares in board order, Kings last; it
// fails the test when the rules refuse the lineups or every placement
// left.
func replaySetup(t *testing.T, p Position) Position {
	t.Helper()
	tbl := p.Table()
	var armies [2]Army
	for _, s := range []Side{First, Second} {
		a, err := tbl.Army(lineupOn(p, s))
		if err != nil {
			t.Fatalf("the %s player's army: %v", s, err)
		}
		armies[s] = a
	}
	var setup Setup
	for seed := uint64(0); ; seed++ { // on a tie, a coin that gives player 1 rows 1-3
		s, err := NewSetup(tbl, armies[First], armies[Second], rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if s.FirstPlayer() == 0 {
			setup = s
			break
		}
		if armies[First].Size() != armies[Second].Size() {
			t.Fatalf("%d units on rows 1-3 against %d: %s: the player with more units begins with the setup, on rows 1-3",
				armies[First].Size(), armies[Second].Size(), p)
		}
	}
	var todo [2][]Square
	for sq := Square(0); sq < NumSquares; sq++ {
		if pc, ok := p.At(sq); ok {
			todo[pc.Side] = append(todo[pc.Side], sq)
		}
	}
	for _, s := range []Side{First, Second} {
		slices.SortStableFunc(todo[s], func(a, b Square) int { return boolInt(p.isKing(a)) - boolInt(p.isKing(b)) })
	}
	for {
		sd, ok := setup.Next()
		if !ok {
			break
		}
		placed := false
		for i, sq := range todo[sd] {
			pc, _ := p.At(sq)
			if next, err := setup.Place(sd, pc.Unit.Name, sq); err == nil {
				setup, placed = next, true
				todo[sd] = slices.Delete(todo[sd], i, i+1)
				break
			}
		}
		if !placed {
			t.Fatalf("%s: the %s player can place none of %v:\n%s", p, sd, todo[sd], setup.Board().Diagram())
		}
	}
	q, err := setup.Battle()
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Every opening is a battle start the rules allow: the two armies are
// lineups ("in sum the cost can't exceed 50", "27 units at most
// (including the King)", the King given), set up by the rules ("The
// player with more units begins with the setup", rows 1-3 and 7-9,
// alternately), with the player who "hasn't put the last unit onto the
// board" to move.
func TestOpeningsAreSetUpAsTheRulesAllow(t *testing.T) {
	costs := [][2]int{{36, 49}, {47, 40}, {50, 41}}
	if len(Openings()) != len(costs) {
		t.Fatalf("%d openings, %d costs to check", len(Openings()), len(costs))
	}
	for i, text := range Openings() {
		t.Run(text, func(t *testing.T) {
			p := parseOpening(t, i)
			if got := [2]int{p.Cost(First), p.Cost(Second)}; got != costs[i] {
				t.Errorf("costs: got %v, want %v", got, costs[i])
			}
			if q := replaySetup(t, p); !q.Equal(p) {
				t.Errorf("the setup ends in %s, want %s", q, p)
			}
		})
	}
}

// The slice Openings returns is the caller's.
func TestOpeningsIsACopy(t *testing.T) {
	o := Openings()
	o[0] = "changed"
	if Openings()[0] == "changed" {
		t.Errorf("changing the returned slice changed the openings")
	}
}
