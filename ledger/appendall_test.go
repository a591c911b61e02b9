package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"tableref/engine/greatwar"
)

var errStale = errors.New("stale proposal")

// turnIs is the check of a proposal worked out in turn n.
func turnIs(n int) func(any) error {
	return func(st any) error {
		if got := st.(greatwar.State).Turn; got != n {
			return fmt.Errorf("%w: proposed for turn %d, the campaign is in turn %d", errStale, n, got)
		}
		return nil
	}
}

var endOfTurn1 = []json.RawMessage{
	json.RawMessage(`{"kind":"income","sources":[{"player":"kate","source":"homeland","gold":1}]}`),
	json.RawMessage(`{"kind":"end-turn"}`),
}

// TestAppendAllRefusesAStaleProposal: the UI reads turn 1 and proposes
// its end; another process (the CLI) ends turn 1 meanwhile; the UI's
// confirmation, checked under the write lock, is refused and records
// nothing, where Append after Append would end a turn twice.
func TestAppendAllRefusesAStaleProposal(t *testing.T) {
	ui, path := openTemp(t)
	ui.Create("war", GreatWar)
	mustAppend(t, ui, "war", setupGW)
	cli, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	st, _ := ui.State("war")
	proposed := st.(greatwar.State).Turn
	if _, err := cli.AppendAll("war", endOfTurn1, turnIs(1)); err != nil {
		t.Fatalf("the CLI's end of turn: %v", err)
	}
	if _, err := ui.AppendAll("war", endOfTurn1, turnIs(proposed)); !errors.Is(err, errStale) {
		t.Errorf("the UI's stale end of turn: got %v, want the check's error", err)
	}
	if st, _ := ui.State("war"); st.(greatwar.State).Turn != 2 || st.(greatwar.State).Gold["kate"] != 6 {
		t.Errorf("after one end of turn: got turn %d, kate's gold %d; want turn 2 and 6", st.(greatwar.State).Turn, st.(greatwar.State).Gold["kate"])
	}
}

// TestAppendAllIsAllOrNothing: when the rules refuse one of the events,
// none of them is stored.
func TestAppendAllIsAllOrNothing(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	events := append(endOfTurn1[:1:1], json.RawMessage(`{"kind":"transfer","player":"zed","to":"eli","gold":1}`))
	if _, err := s.AppendAll("war", events, nil); err == nil {
		t.Error("an unknown player in the second event: got no error")
	}
	if recs, _ := s.Events("war"); len(recs) != 1 {
		t.Errorf("got %d events, want only the setup", len(recs))
	}
	recs, err := s.AppendAll("war", endOfTurn1, turnIs(1))
	if err != nil || len(recs) != 2 || recs[0].Seq != 2 || recs[1].Seq != 3 {
		t.Errorf("a good end of turn: got %+v, %v; want events 2 and 3", recs, err)
	}
}
