// Package battle9 is the referee of the 9x9 battle game (source:
// ../shared/seeds/003_cde703ca0257933f.txt): the unit table (moves and
// costs as editable data, with an embedded default for the five races),
// army lineups, the setup phase, positions as immutable values with a
// compact text form, the legal moves (dots, arrows, jumps, the Troll's
// second move, the Shaman's explosion, the rule that a King must never be
// left capturable), the end of the game, and the inference of the move
// played between two board states seen by a camera.
//
// Board frame: files a..i from the left of the first player, rows 1..9
// from the first player's edge. The first player (the one who sets up
// first) owns rows 1-3 and moves "forward" towards row 9; the second
// player sits across the table, so every direction of its units is turned
// by 180 degrees.
//
// battle9 is pure Go: it imports the standard library only; never OpenCV,
// never Fyne, never vision, ui or cmd. A board reader plugs in through
// the Occupancy type (which side, if any, stands on each square).
package battle9
