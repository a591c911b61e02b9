package ledger

import (
	"errors"
	"strings"
	"testing"
)

// TestUndoIfRefusesAnEventRecordedMeanwhile: the UI (handle A) shows the
// last live event, #2; the CLI (handle B, another connection to the same
// file) records #3; the UI's confirmed undo of #2 is refused and changes
// nothing, where Undo would have undone the CLI's #3.
func TestUndoIfRefusesAnEventRecordedMeanwhile(t *testing.T) {
	a, path := openTemp(t)
	a.Create("war", GreatWar)
	mustAppend(t, a, "war", setupGW)
	mustAppend(t, a, "war", `{"kind":"transfer","player":"kate","to":"eli","gold":3}`)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	recs, _ := a.Events("war")
	seen := recs[len(recs)-1].Seq
	if seen != 2 {
		t.Fatalf("last event: got #%d, want #2", seen)
	}
	if r := mustAppend(t, b, "war", `{"kind":"transfer","player":"kate","to":"eli","gold":1}`); r.Seq != 3 {
		t.Fatalf("B's event: got #%d, want #3", r.Seq)
	}

	_, err = a.UndoIf("war", seen)
	var nl *NotLastError
	if !errors.Is(err, ErrNotLast) || !errors.As(err, &nl) || nl.Last != 3 || nl.Expected != 2 {
		t.Fatalf("UndoIf(#2) after B recorded #3: got %v, want a NotLastError (last #3, expected #2)", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "the campaign changed: the last event is #3, not #2; nothing undone") {
		t.Errorf("the refusal says %q", msg)
	}
	recs, _ = b.Events("war")
	for _, r := range recs {
		if r.Undone != nil {
			t.Errorf("event #%d (%s) was undone by a refused UndoIf", r.Seq, r.Kind)
		}
	}
	if g := gold(t, b, "war"); g["kate"] != 1 || g["eli"] != 4 {
		t.Errorf("after the refusal: got %v, want kate 1, eli 4", g)
	}

	// Seen again, #3 is undone; then #2, the last live event, with #3 undone.
	if u, err := a.UndoIf("war", 3); err != nil || u.Seq != 3 || u.Undone == nil {
		t.Fatalf("UndoIf(#3): got %+v, %v; want #3 undone", u, err)
	}
	if _, err := b.UndoIf("war", 3); !errors.As(err, &nl) || nl.Last != 2 {
		t.Errorf("UndoIf(#3) again: got %v, want a refusal naming #2", err)
	}
	if u, err := b.UndoIf("war", 2); err != nil || u.Seq != 2 {
		t.Fatalf("UndoIf(#2) once #3 is undone: got %+v, %v; want #2", u, err)
	}
	a.Undo("war") // the setup
	if _, err := a.UndoIf("war", 1); !errors.As(err, &nl) || nl.Last != 0 || !strings.Contains(err.Error(), "no live event is left, not #1") {
		t.Errorf("UndoIf with nothing left: got %v, want a refusal saying none is left", err)
	}
	if _, err := a.UndoIf("war", 0); err == nil || errors.Is(err, ErrNotLast) {
		t.Errorf("UndoIf(#0): got %v, want an error about the number", err)
	}
}
