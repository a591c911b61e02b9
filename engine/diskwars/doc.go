// Package diskwars is the rules engine of Diskwars (Fantasy Flight Games,
// 1999; French rulebook by Tilsit), ruleset name "diskwars".
//
// It owns:
//   - the contact relation the rules read, where only a creature between
//     two disks keeps them apart (contacts.go);
//   - the missile phase: the projectile table, who may shoot and at what
//     range, the damage of dropped tokens (missiles.go);
//   - the damage arithmetic: damage at least the toughness is a wound,
//     twice the toughness two wounds, multi-wound disks, momentary damage,
//     the end of turn (damage.go);
//   - the Combat phase: top-down melee with combined attacks and defences,
//     Téméraire, Rapidité, Berserk (melee.go), and the engine.Ruleset that
//     fills the analysis report (ruleset.go);
//   - the activation phase: three disks a player, clockwise, and where a
//     phase stands from a layout and the turns played (activation.go,
//     activation_status.go);
//   - movement by flipping, checked from two layouts, with the special
//     skills bard and ambush (movement.go, creature.go);
//   - the 31 spells as data and their areas on a layout (spells.go,
//     spellarea.go), and the lasting effects of the spell disks left on
//     their targets (effects.go);
//   - army building checks (army.go) and the three scenarios' victory
//     checks (scenarios.go).
//
// Every length is in the table frame, in centimetres, measured edge to edge
// ("les mesures s'effectuent toujours de bord de Disk à bord de Disk").
// The interpretations the rulebook leaves open are written in
// docs/diskwars.md and in the doc comments of the functions that apply them.
//
// diskwars imports models, engine and the standard library only: never
// OpenCV, Fyne, vision, ui or cmd. Its functions are pure: they read a
// layout or a table and return new values.
package diskwars
