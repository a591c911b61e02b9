// Package ui is the desktop referee of tableref: a Fyne window that shows
// the table live with overlays (disk outlines by owner, names, engagement
// arrows, embattled marks, hits, damage and wounds), range rings and
// edge-to-edge distances from a selected disk, the rulings of a ruleset in
// resolution order with their step log, a damage tracker that changes only
// on the player's confirmation, an activation tracker, corrections of every
// detected fact, and a calibration panel.
//
// The package owns:
//   - the interfaces it consumes: FrameSource (frames: an image, the layout
//     read from it, a timestamp), Analyzer (layout and rules name to an
//     engine.Report), Calibrator (the calibration wizard's steps) and
//     Campaign (the Campaign tab: a campaign ledger's state, the end of a
//     turn proposed from the table shown, record, undo, history);
//   - pure helpers with their own tests: the top-down rendering of a layout
//     (RenderLayout), the overlay drawn onto a frame image (DrawOverlay),
//     range rows (Ranges), the settle gate (SettleGate), corrections and
//     their JSON file (Corrections), army lists (ParseArmyList), the damage
//     and activation trackers;
//   - the Fyne window (New), built from an injected fyne.App so that tests
//     pass test.NewApp().
//
// Frames flow from a FrameSource running on its own goroutine; each
// displayed frame reaches the widgets through one fyne.Do, throttled, the
// latest frame winning. Analysis runs on its own goroutine, so a slow
// ruling never freezes the window.
//
// ui imports models, engine, engine/rulesets and engine/battle9 (the
// board view), Fyne and golang.org/x/image.
// It must not import vision, calibration, OpenCV (gocv), the campaign
// ledger or any database, or cmd: a camera source, a calibrator and a
// campaign are plugged in by cmd through the interfaces, and "go test
// ./ui/..." runs without OpenCV or a database. It never imports
// fyne/v2/test outside its tests.
package ui
