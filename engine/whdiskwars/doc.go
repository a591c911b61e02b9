// Package whdiskwars is the melee engine of Warhammer: Diskwars (Fantasy
// Flight Games, 2014), ruleset name "whdiskwars".
//
// It owns:
//   - the keywords that matter in melee and their parsing: Swift, Slow
//     (both attacks or only :strength / :counter), Frenzy, Immune (X),
//     Resistant (X), and the "on-engage" marker for "when this disk
//     engages" abilities (keywords.go);
//   - the damage arithmetic: instances, toughness, wounds, stamina,
//     casualties, Immune and Resistant, the End Phase (damage.go), and
//     the correction of a disk photographed past its limits before the
//     first engagement (settle.go);
//   - engagements from the pin relation, embattled disks and the split of
//     scrums into engagements (engagements.go);
//   - the resolution order: resolve_before, cycles, the first player's
//     choice (order.go);
//   - the stats a disk in an engagement needs, the players' choices
//     (target, targets, engagement_order) (fighters.go), stat names
//     (stats.go), and the damage, wound and activation tokens lying on a
//     disk (statetokens.go);
//   - the Melee Phase: Swift, normal and Slow steps, targets, Frenzy,
//     engagements created by removals (melee.go, targets.go);
//   - the engine.Ruleset that fills the analysis report and its
//     "details" (ruleset.go, details.go).
//
// The rules text is shared/seeds/001_5f6384918549c6a5.txt ("Melee"); the
// interpretations it leaves open are written in docs/whdiskwars.md and in
// the doc comments of the functions that apply them.
//
// Disks are referred to by their index in the layout, as in engine.Table.
// Every function is pure: it reads a table or a layout and returns new
// values; the table is never changed.
//
// whdiskwars imports models, engine and the standard library only: never
// OpenCV, Fyne, vision, ui or cmd.
package whdiskwars
