// Package greatwar holds the pure rules of "The Great War", the Diskwars
// campaign of ../shared/seeds/000_9d00b7c3481c6c50.txt:
//
//   - setup checks on a table layout (factions and alignments, terrain
//     choice and spacing, the central mountain, starting armies);
//   - the turn: random playing order, the activation allowance (the
//     division by 3 rule), conquest (sole control at the end of a turn);
//   - income at the end of a turn, computed from the table with the engine
//     geometry (a disk touches a terrain when it lies on it);
//   - purchases at the start of a turn (army rules, uniques, secret buys
//     revealed together, the bidding war, one spell per turn), transfers
//     between allies, the homeland abilities, the Familiar recharge,
//     Resurrection, the banned spell and the optional Battle for the Bones;
//   - the end of the campaign: the alignment that conquers every enemy
//     homeland wins (victory.go);
//   - the campaign state machine (State, Event, Apply): a state is a value,
//     applying an event returns a new state and the event's effects, so a
//     ledger derives the state by replaying its events; a campaign is
//     played under the rules version its setup names (rules_version.go),
//     so that stored campaigns replay with the effects recorded with them.
//
// greatwar imports models, engine and the standard library: never the
// ledger, a database, ui or cmd.
package greatwar
