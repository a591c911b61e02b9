// Package engine owns the geometry shared by every ruleset and the
// analysis report: edge-to-edge distances, overlap, the contact (pinning)
// relation with the sandwich rule, contact chains, disks within a range of
// a disk or a point, tokens touching disks and the projectile hit rule.
//
// All lengths are in the table frame, in centimetres (models.Centimetres);
// the engine never sees pixels.
//
// Rulesets sit side by side in sub-packages (engine/diskwars,
// engine/whdiskwars, ...) behind the small Ruleset interface; the
// engine/rulesets package lists them by name.
//
// engine imports models and the standard library only: never OpenCV,
// never Fyne, never vision, ui or cmd.
package engine
