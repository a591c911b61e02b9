// Package esfah holds the pure rules of "The Conquest of Esfah", the
// Dragon Dice campaign of ../shared/seeds/002_2b784673a7311b3b.txt: the
// battle size table, the order of play and initial army checks, the
// recruiting cycles (every fifth round), the recruiting arithmetic (one
// health per four of a race at a terrain, rounded up; half rate for another
// race or for magic items; doubled in native terrain; dragons, dragonkin
// and items do not count; bonus recruits not doubled), the native terrain
// table and the races a campaign knows (races.go: a misspelt race is
// refused, naming the race meant), the terrain pool for expansion, the
// victory goal and the campaign spells.
//
// It also holds the campaign state machine (State, Event, Apply): a state
// is a value, applying an event returns a new state and the effects of the
// event, so that a ledger can derive the state by replaying events.
// Apply is for recording an event and applies every rule; Replay is for
// events already recorded, and applies those recorded by older versions
// as they did, with a warning, where a rule added since refuses them
// (legacy.go).
//
// esfah imports the standard library only: never the ledger, a database,
// the engine geometry, ui or cmd.
package esfah
