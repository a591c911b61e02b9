// Package board9 reads the 9x9 battle game's board from a camera frame:
// it finds the board on the table (its outline, then its ten by ten grid
// lines, giving a mapping from board squares to pixels that holds under a
// tilted camera, uneven light, lens distortion and pieces hiding parts of
// the lines), says for each of the 81 squares whether a piece stands on it
// and of which side (the two armies' colours, learned from a frame whose
// position is known, or told apart unsupervised), and infers the move
// played between a known position and a new frame with the legal moves as
// a prior, flagging a change no legal move explains.
//
// Board coordinates are in squares from the grid's a1 corner: x along the
// files (a to i), y along the rows (1 to 9); the centre of square a1 is
// (0.5, 0.5). Squares are indexed as in engine/battle9.
//
// The package also builds the benchmark of the reader on boards rendered
// by vision/synth (Measure): square accuracy and move accuracy.
//
// board9 imports engine/battle9, calibration (to undistort a frame),
// vision/synth (for its benchmark), gocv and the standard library. It must
// not import ui or cmd. Every gocv Mat is closed on every path by the
// function that creates it; no gocv type appears in an exported signature.
package board9
