package whdiskwars

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Stat names of Warhammer: Diskwars disks (field "stats" of a disk).
const (
	StatStrength  = "strength"
	StatCounter   = "counter" // Counter Strength
	StatToughness = "toughness"
	StatStamina   = "stamina" // default 0
)

// MaxStat bounds every stat and state count of a disk in an engagement:
// no disk of the game comes near it, and sums of such numbers cannot
// overflow.
const MaxStat = 1000

// FieldTargets is a disk field (an extension of the table model): the ids
// of the enemies the disk strikes, in order of preference, after "target".
// An embattled disk needs two choices (one when attacking, one when
// defending); "target" holds one.
const FieldTargets = "targets"

// StatError is a disk in an engagement whose statistics do not allow the
// melee to be resolved: a stat is missing or out of range.
type StatError struct {
	Disk    string // id
	Name    string // disk name, may be empty
	Stat    string
	Problem string
}

func (e *StatError) Error() string {
	who := fmt.Sprintf("disk %q", e.Disk)
	if e.Name != "" {
		who += " (" + e.Name + ")"
	}
	return fmt.Sprintf("%s, stat %q: %s", who, e.Stat, e.Problem)
}

// Fighters reads every disk's melee data. A disk that attacks in an
// engagement needs "strength", one that defends needs "counter", and both
// need "toughness" (at least 1); "stamina" defaults to 0. Stat names are
// compared without regard to case (see statOf). Missing or negative stats
// are errors naming the disk and the stat (all of them, joined); unknown
// keywords, unknown stats and impossible choices are warnings. The state
// on a disk is its fields merged with the tokens lying on it (StateTokens,
// diskState).
func Fighters(t *engine.Table, s Split, rel Relation) ([]Fighter, []string, error) {
	fighters := make([]Fighter, t.Len())
	tokens, warnings := StateTokens(t)
	var errs []error
	for i, d := range t.Disks() {
		f, w, err := fighter(t, d, tokens[i], s.AttackIn[i] >= 0, s.DefendIn[i] >= 0)
		fighters[i] = f
		warnings = append(warnings, w...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		warnings = append(warnings, checkTargets(t, i, f.Targets, rel)...)
	}
	return fighters, warnings, errors.Join(errs...)
}

func fighter(t *engine.Table, d models.Disk, ts TokenState, attacks, defends bool) (Fighter, []string, error) {
	p, problems := ParseProfile(d.Keywords)
	var warnings []string
	if Combatant(d) { // terrain and spell keywords and stats are not melee ones
		for _, pr := range problems {
			warnings = append(warnings, fmt.Sprintf("disk %s: %s", label(d), pr))
		}
		warnings = append(warnings, statWarnings(d)...)
	}
	damage, wounds, activated, w := diskState(d, ts)
	warnings = append(warnings, w...)
	f := Fighter{Profile: p, Health: Health{Damage: damage, Wounds: wounds}, Activated: activated}
	engaged := attacks || defends
	var errs []error
	need := func(stat string, required bool, min int, dst *int) {
		v, ok := statOf(d, stat)
		switch {
		case !ok && required:
			errs = append(errs, &StatError{d.ID, d.Name, stat, "missing; a disk in an engagement needs it"})
		case ok && (v < min || v > MaxStat) && engaged:
			errs = append(errs, &StatError{d.ID, d.Name, stat, fmt.Sprintf("is %d, must be from %d to %d", v, min, MaxStat)})
		case ok:
			*dst = v
		}
	}
	if engaged {
		if err := countError(d, "damage", TokenDamage, d.Damage, damage); err != nil {
			errs = append(errs, err)
		}
		if err := countError(d, "wounds_taken", TokenWound, d.WoundsTaken, wounds); err != nil {
			errs = append(errs, err)
		}
	}
	need(StatToughness, engaged, 1, &f.Health.Toughness)
	need(StatStamina, false, 0, &f.Health.Stamina)
	need(StatStrength, attacks, 0, &f.Strength)
	need(StatCounter, defends, 0, &f.Counter)
	targets, w, err := choices(t, d)
	f.Targets = targets
	warnings = append(warnings, w...)
	if err != nil {
		errs = append(errs, err)
	}
	if engaged && len(errs) == 0 {
		warnings = append(warnings, stateWarnings(d, f.Health)...)
	}
	return f, warnings, errors.Join(errs...)
}

// countError reports a damage or wound count (field, or tokens of kind
// kind) beyond MaxStat, nil when within it. The field's own value is told
// as it is; a token sum is not, since StateTokens caps it at MaxStat+1 and
// the capped figure is not what lies on the disk.
func countError(d models.Disk, field, kind string, fieldValue, count int) error {
	if count <= MaxStat {
		return nil
	}
	problem := fmt.Sprintf("the %s tokens lying on it are worth more than %d", kind, MaxStat)
	if fieldValue != 0 { // diskState used the field
		problem = fmt.Sprintf("is %d, must be at most %d", fieldValue, MaxStat)
	}
	return &StatError{d.ID, d.Name, field, problem}
}

// choices reads the disk's "target" and "targets" fields.
func choices(t *engine.Table, d models.Disk) ([]int, []string, error) {
	var ids []string
	if d.Target != "" {
		ids = append(ids, d.Target)
	}
	if raw, ok := d.Extra[FieldTargets]; ok {
		var more []string
		if err := json.Unmarshal(raw, &more); err != nil {
			return nil, nil, fmt.Errorf("disk %q, field %q: want a list of disk ids: %w", d.ID, FieldTargets, err)
		}
		ids = append(ids, more...)
	}
	var out []int
	var warnings []string
	for _, id := range ids {
		j, ok := t.Index(id)
		if !ok {
			warnings = append(warnings, fmt.Sprintf("disk %s: target %q is no disk of this layout (ignored)", label(d), id))
			continue
		}
		out = append(out, j)
	}
	return out, warnings, nil
}

// checkTargets warns about chosen targets the disk is not engaged with.
func checkTargets(t *engine.Table, i int, targets []int, rel Relation) []string {
	var warnings []string
	for _, j := range targets {
		if !rel.Has(i, j) && !rel.Has(j, i) {
			warnings = append(warnings, fmt.Sprintf("disk %s: target %s is not engaged with it (ignored)", label(t.Disk(i)), label(t.Disk(j))))
		}
	}
	return warnings
}

// orderOption is the layout's top-level field with the first player's
// explicit engagement order: a list of engagement ids ("E2") or ids of a
// disk attacking in the engagement.
const orderOption = "engagement_order"

// ExplicitOrder reads the first player's engagement order from the layout
// (field "engagement_order") and returns each engagement's rank (Unlisted
// when not named), whether the field was given, and warnings for entries
// that name no engagement or name one twice.
func ExplicitOrder(t *engine.Table, s Split) ([]int, bool, []string, error) {
	rank := filled(len(s.Engagements), Unlisted)
	var entries []string
	given, err := t.Layout().Option(orderOption, &entries)
	if err != nil || !given {
		return rank, false, nil, err
	}
	var warnings []string
	next := 0
	for _, entry := range entries {
		e, ok := s.named(t, entry)
		switch {
		case !ok:
			warnings = append(warnings, fmt.Sprintf("%s: %q names no engagement (an engagement id such as E1, or a disk attacking in one); ignored", orderOption, entry))
		case rank[e] != Unlisted:
			warnings = append(warnings, fmt.Sprintf("%s: %q names %s a second time; ignored", orderOption, entry, s.Engagements[e].ID))
		default:
			rank[e] = next
			next++
		}
	}
	return rank, true, warnings, nil
}

// named returns the engagement an order entry names: an engagement id, or
// the id of a disk that attacks in it.
func (s Split) named(t *engine.Table, entry string) (int, bool) {
	if i, ok := t.Index(entry); ok && s.AttackIn[i] >= 0 {
		return s.AttackIn[i], true
	}
	e := slices.IndexFunc(s.Engagements, func(g Engagement) bool { return g.ID == entry })
	return e, e >= 0
}
