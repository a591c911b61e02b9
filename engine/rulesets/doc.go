// Package rulesets lists the rulesets of tableref by name, for the CLI and
// the UI. It owns nothing but the list: each ruleset lives in its own
// package under engine/.
//
// It imports engine and the ruleset packages; it must not import vision,
// ui, calibration or cmd.
package rulesets
