// Package models owns the table model of tableref: the values that flow
// from the camera side (calibration, vision) to the rules side (engine) and
// to every reader and writer of a table snapshot (CLI, UI, campaign ledger).
//
// It defines Layout (one snapshot of a table: disks and tokens in table
// centimetres), its JSON file format version 1 as written in
// shared/spec/table-model.md and docs/table-model-extensions.md, and the
// validating loader that rejects bad input with an error naming the file,
// the object and the field.
//
// Frames: X, Y, R of disks and tokens are in the table frame, in
// centimetres (type Centimetres). PX, PY, PR are in the image frame, in
// pixels (type ImageCircle), u right and v down from the top-left corner.
//
// models imports nothing from this project and nothing outside the
// standard library: no OpenCV, no Fyne. Every other package may import it.
package models
