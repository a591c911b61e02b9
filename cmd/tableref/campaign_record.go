package main

import (
	"errors"
	"fmt"
	"reflect"

	"tableref/engine/esfah"
	"tableref/engine/greatwar"
)

// errStaleProposal: a proposal (an end of turn worked out from the
// campaign's state, then confirmed) was refused because the campaign
// changed in between, from another window or process (the CLI and the UI
// open on the same campaign). Nothing of it is recorded.
var errStaleProposal = errors.New("the campaign changed since this was proposed")

func staleProposal(proposed, now int) error {
	if proposed != now {
		return fmt.Errorf("%w: the proposal ends turn %d but the campaign is in turn %d; nothing recorded: propose again", errStaleProposal, proposed, now)
	}
	return fmt.Errorf("%w (an event was recorded or undone meanwhile, in another window or with the CLI); nothing recorded: propose again", errStaleProposal)
}

// proposalBasis is what a proposal was worked out from: the campaign's
// turn and, when known, its whole state (a greatwar.State or an
// esfah.State, as ledger.Store.State returns it).
type proposalBasis struct {
	turn  int
	state any
}

// check refuses, with errStaleProposal, a campaign state that is no longer
// the one the proposal was worked out from: another turn, or (when the
// state is known) any other change, an event recorded or undone. It is
// given to ledger.Store.AppendAll, which runs it under the write lock in
// the transaction of the proposal's events, so that no other process can
// record anything between the check and the events.
func (b proposalBasis) check(now any) error {
	t, ok := campaignTurn(now)
	if !ok {
		return fmt.Errorf("no end of turn for these rules (state %T)", now)
	}
	if t != b.turn {
		return staleProposal(b.turn, t)
	}
	if b.state != nil && !reflect.DeepEqual(now, b.state) {
		return staleProposal(b.turn, t)
	}
	return nil
}

// campaignTurn is the turn a campaign is in: the Great War's turn, the
// Esfah round.
func campaignTurn(state any) (int, bool) {
	switch st := state.(type) {
	case greatwar.State:
		return st.Turn, true
	case esfah.State:
		return st.Round, true
	}
	return 0, false
}
