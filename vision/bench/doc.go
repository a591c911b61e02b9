// Package bench is the benchmark harness of the camera side: it renders
// synthetic scenes (vision/synth) tier by tier, calibrates each scene's
// table plane from its board view and measures the calibration against the
// true camera (error in mm, p50 and p95 over a 90 cm table), then, when a
// Detector is plugged in, runs it on every photograph and scores it
// against the ground truth: disk F1, centre and radius error, edge-to-edge
// distance error, stacking-order accuracy, token F1, token-to-disk
// assignment, frames per second and milliseconds per stage.
//
// The report is a value (Report) written as a table for people or as
// JSON for machines.
//
// bench imports models, calibration and vision/synth; it does not import
// vision itself: a detector comes in through the Detector interface, so
// the harness runs (and reports calibration alone) before one exists.
package bench
