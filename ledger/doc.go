// Package ledger is the campaign store: a campaign is a list of events,
// each with its turn and time, kept in an embedded SQLite database (one
// file); the state of a campaign is derived by replaying its events
// through the rules (engine/greatwar, engine/esfah). It offers undo of
// the last event, export and import of a whole campaign as JSON, and a
// player's ledger (every gold or pool change with its source).
//
// Crash safety: the database runs in WAL mode with synchronous=FULL, and
// every event is written with all its effect rows in one transaction, so
// that a process killed at any moment leaves every committed event whole
// and no event half-written. Opening a database checks that every event
// has all its effect rows and that replaying the events gives the
// recorded effects; an SQLite file of another program is refused before
// anything is written to it.
//
// A Store is safe for use by one goroutine at a time; several processes
// may open the same file (SQLite locks it; every write transaction takes
// the write lock when it begins, and writers wait up to 5 s for it).
//
// ledger imports the rules packages, models, engine and database/sql with
// the modernc.org/sqlite driver; never ui or cmd.
package ledger
