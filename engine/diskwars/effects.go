package diskwars

import (
	"encoding/json"
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Spell disks left on the table
//
// Several spells last "jusqu'à la fin du tour" and the book says to leave
// the spell disk on the target (or on the caster) to remember it. A spell
// disk (kind "spell") names its spell in its "spell" field or, without
// one, in its "name" (French or English, any case, accents optional). It
// acts on the creature it lies on: the disk named by its "target" field,
// or else the highest creature under it whose circle holds the spell
// disk's centre (none: the creature under it with the nearest centre). An
// area spell acts on the disks listed in its "affected" field (the ids
// `tableref spell cast` reported when it was cast) or, without one, on the
// disks its area holds on the table analysed.
//
// What each spell changes in the rulings of this package:
//   - Bouclier: +3 toughness to the target until the end of the turn.
//   - Rune de protection: the target takes no damage from projectiles.
//   - Décrépitude (on the caster): -1 toughness, never below 1, to every
//     enemy creature within 15 cm of the caster.
//   - Tireur d'élite: the target is marked; shooters with it in range may
//     lay their projectiles on it (Shooter.Marked).
//   - Zap (on the caster): +2 movement to the creatures within 30 cm,
//     the caster included.
//   - Vitesse: +3 movement to the target during the activation phase.
//   - Prise de tête: the target cannot use its special skills (CS).
//   - Répulsion: nobody flies over the target nor ends a move on it.
//   - Boule de feu: a reminder of the fireball's damage, which the target's
//     "damage" field must hold; only a warning when it holds none.
//   - Protection and Protection divine: the book takes their disks off at
//     once; tableref accepts one left on the caster as a reminder.
//     Protection: the caster and every creature in contact with it take no
//     damage; Protection divine: +6 toughness to the caster.
//   - Immobilisation, likewise accepted on its target as a reminder: the
//     target may not move during the activation phase.
//
// Mur magique is a spell disk too, lying on nothing; movement.go keeps
// disks off it. Any other spell disk lying on a creature is ignored with a
// warning: the book takes it off the table once cast.

// Spell effect bonuses and ranges from the "Livre de sorts".
const (
	ShieldBonus          = 3  // Bouclier: +3 toughness
	DivineBonus          = 6  // Protection divine: +6 toughness
	SpeedBonus           = 3  // Vitesse: +3 movement
	ZapBonus             = 2  // Zap: +2 movement
	DecayRange           = 15 // Décrépitude: 15 cm around the caster
	ZapRange             = 30 // Zap: 30 cm around the caster
	minToughnessForDecay = 1  // Décrépitude: "ne peut pas descendre en dessous de 1"
)

// LaidSpell is a spell disk lying on the table as a reminder of an effect
// that lasts, and what it does this turn.
type LaidSpell struct {
	// Disk is the spell disk's id, Spell the spell's French name.
	Disk  string `json:"disk"`
	Spell string `json:"spell"`
	// On is the creature the spell disk lies on (its target or caster).
	On string `json:"on"`
	// Affected are the creatures the effect applies to.
	Affected []string `json:"affected"`
	// From says where Affected comes from: "target" (the disk it lies on),
	// "field" (the spell disk's "affected" field) or "layout" (the spell's
	// area measured on the table analysed).
	From   string `json:"from"`
	Effect string `json:"effect"`
}

// DiskEffects are the lasting spell effects on one creature this turn.
type DiskEffects struct {
	// Toughness is added to the creature's toughness (Bouclier, Protection
	// divine); Decay is how many Décrépitude spells take 1 off it.
	Toughness int `json:"toughness,omitempty"`
	Decay     int `json:"decay,omitempty"`
	// Movement is added to its movement (Vitesse, Zap).
	Movement int `json:"movement,omitempty"`
	// MissileImmune names the spell disk that makes it immune to
	// projectiles (Rune de protection), "" for none.
	MissileImmune string `json:"missile_immune,omitempty"`
	// NoDamage names the spell disk under which it takes no damage at all
	// (Protection), "" for none.
	NoDamage string `json:"no_damage,omitempty"`
	// Marked names the spell disk under which projectiles may be laid on
	// it (Tireur d'élite), "" for none.
	Marked string `json:"marked,omitempty"`
	// NoSkills names the spell disk under which it cannot use its special
	// skills (Prise de tête), "" for none.
	NoSkills string `json:"no_skills,omitempty"`
	// Immobile names the spell disk under which it cannot move this
	// activation phase (Immobilisation), "" for none.
	Immobile string `json:"immobile,omitempty"`
	// Repulsion names the spell disk under which nobody flies over it or
	// lands on it (Répulsion), "" for none.
	Repulsion string `json:"repulsion,omitempty"`
	// Spells names the spell disks behind the effects, "Bouclier (s1)".
	Spells []string `json:"spells,omitempty"`
}

// Effects are the lasting effects of the spell disks on a table.
type Effects struct {
	Laid     []LaidSpell
	Warnings []string
	byDisk   map[int]*DiskEffects
}

// Of returns the effects on disk i (the zero value for none).
func (e Effects) Of(i int) DiskEffects {
	if d, ok := e.byDisk[i]; ok {
		return *d
	}
	return DiskEffects{}
}

// ApplyTo returns c with the toughness effects applied: bonuses first,
// then each Décrépitude, never below 1 (nor below the toughness it had if
// that was already under 1, which CreatureOf does not allow).
func (d DiskEffects) ApplyTo(c Creature) Creature {
	c.Toughness += d.Toughness
	for range d.Decay {
		c.Toughness = max(c.Toughness-1, minToughnessForDecay)
	}
	c.Movement += d.Movement
	if len(d.Spells) > 0 {
		c.Effects = slices.Clone(d.Spells)
	}
	return c
}

// SpellName returns the spell a spell disk stands for: its "spell" field,
// else its name; false when the disk is not a spell disk or names no
// known spell.
func SpellName(d models.Disk) (Spell, bool) {
	if d.Kind != models.KindSpell {
		return Spell{}, false
	}
	var name string
	if raw, ok := d.Extra["spell"]; ok {
		if err := json.Unmarshal(raw, &name); err != nil {
			return Spell{}, false
		}
	}
	if name == "" {
		name = d.Name
	}
	return LookupSpell(name)
}

// SpellEffects reads the spell disks of the table. A spell disk whose
// "spell" field is not a string, whose "target" or "affected" names a disk
// not on the table, or whose "affected" is not a list of ids, is an error
// naming it.
func SpellEffects(t *engine.Table) (Effects, error) {
	e := Effects{Laid: []LaidSpell{}, byDisk: map[int]*DiskEffects{}}
	for i, d := range t.Disks() {
		if d.Kind != models.KindSpell {
			continue
		}
		if err := e.read(t, i); err != nil {
			return Effects{}, err
		}
	}
	return e, nil
}

func (e *Effects) warnf(format string, args ...any) {
	e.Warnings = append(e.Warnings, fmt.Sprintf(format, args...))
}

// read adds the effect of spell disk i.
func (e *Effects) read(t *engine.Table, i int) error {
	d := t.Disk(i)
	if raw, ok := d.Extra["spell"]; ok {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("spell disk %q: field \"spell\" must be a spell's name: %v", d.ID, err)
		}
	}
	sp, ok := SpellName(d)
	if !ok {
		e.warnf("spell disk %q names no known spell (fields spell or name): it is ignored", d.ID)
		return nil
	}
	if isWall(d) {
		return nil
	}
	on, err := spellTarget(t, i)
	if err != nil {
		return err
	}
	kind, lasting := lastingEffects[normalise(sp.Name)]
	switch {
	case !lasting:
		if on >= 0 {
			e.warnf("spell disk %q (%s) lies on %s, but the book takes that spell off the table once cast: it is ignored", d.ID, sp.Name, t.ID(on))
		}
		return nil
	case on < 0:
		e.warnf("spell disk %q (%s) lies on no creature: its effect is not applied", d.ID, sp.Name)
		return nil
	}
	affected, from, err := affectedBy(t, i, on, sp)
	if err != nil {
		return err
	}
	ls := LaidSpell{Disk: d.ID, Spell: sp.Name, On: t.ID(on), Affected: t.IDs(affected), From: from, Effect: kind.effect}
	if ls.Affected == nil {
		ls.Affected = []string{}
	}
	e.Laid = append(e.Laid, ls)
	for _, j := range affected {
		de, ok := e.byDisk[j]
		if !ok {
			de = &DiskEffects{}
			e.byDisk[j] = de
		}
		label := fmt.Sprintf("%s (%s)", sp.Name, d.ID)
		kind.apply(de, label)
		de.Spells = append(de.Spells, label)
	}
	if normalise(sp.Name) == normalise("Boule de feu") {
		if o := t.Disk(on); o.Damage == 0 && o.WoundsTaken == 0 {
			e.warnf("spell disk %q (Boule de feu) lies on %s, which holds no damage: put the fireball's damage in its \"damage\" field", d.ID, o.ID)
		}
	}
	return nil
}

// lasting is what one lasting spell does to each disk it affects.
type lasting struct {
	effect string
	apply  func(d *DiskEffects, label string)
}

var lastingEffects = map[string]lasting{
	normalise("Bouclier"):           {"+3 toughness until the end of the turn", func(d *DiskEffects, label string) { d.Toughness += ShieldBonus }},
	normalise("Protection divine"):  {"+6 toughness to the caster until the end of the turn", func(d *DiskEffects, label string) { d.Toughness += DivineBonus }},
	normalise("Rune de protection"): {"no damage from projectiles until the end of the turn", func(d *DiskEffects, label string) { d.MissileImmune = label }},
	normalise("Protection"):         {"the caster and the disks in contact with it take no damage until the end of the turn", func(d *DiskEffects, label string) { d.NoDamage = label }},
	normalise("Décrépitude"):        {"-1 toughness (never below 1) to the enemies within 15 cm of the caster", func(d *DiskEffects, label string) { d.Decay++ }},
	normalise("Tireur d'élite"):     {"hit by every projectile attack: shooters in range may lay their projectiles on it", func(d *DiskEffects, label string) { d.Marked = label }},
	normalise("Zap"):                {"+2 movement to the caster and the disks within 30 cm of it", func(d *DiskEffects, label string) { d.Movement += ZapBonus }},
	normalise("Vitesse"):            {"+3 movement during this activation phase", func(d *DiskEffects, label string) { d.Movement += SpeedBonus }},
	normalise("Prise de tête"):      {"cannot use its special skills until the end of the turn", func(d *DiskEffects, label string) { d.NoSkills = label }},
	normalise("Répulsion"):          {"nobody may fly over it or land on it until the end of the turn", func(d *DiskEffects, label string) { d.Repulsion = label }},
	normalise("Immobilisation"):     {"cannot move during this activation phase", func(d *DiskEffects, label string) { d.Immobile = label }},
	normalise("Boule de feu"):       {"a reminder of the fireball's damage (the target's damage field)", func(*DiskEffects, string) {}},
}

// spellTarget returns the creature spell disk i lies on: its "target"
// field, else, among the creatures under it, the highest of those whose
// circle holds the spell disk's centre, else the one with the nearest
// centre; -1 for none.
func spellTarget(t *engine.Table, i int) (int, error) {
	d := t.Disk(i)
	if d.Target != "" {
		j, ok := t.Index(d.Target)
		if !ok {
			return -1, fmt.Errorf("spell disk %q: target %q is not on the table", d.ID, d.Target)
		}
		return j, nil
	}
	best := -1
	better := func(j int) bool {
		hj, hb := holdsCentre(t, j, i), holdsCentre(t, best, i)
		switch {
		case hj != hb:
			return hj
		case hj && t.Disk(j).Z != t.Disk(best).Z:
			return t.Disk(j).Z > t.Disk(best).Z
		}
		return centreDistance(t, i, j) < centreDistance(t, i, best)
	}
	for _, j := range t.Pins(i) {
		if IsCreature(t.Disk(j)) && (best < 0 || better(j)) {
			best = j
		}
	}
	return best, nil
}

// holdsCentre reports whether disk j's circle holds disk i's centre.
func holdsCentre(t *engine.Table, j, i int) bool {
	return centreDistance(t, i, j) < t.Circle(j).R
}

func centreDistance(t *engine.Table, i, j int) float64 {
	return t.Circle(i).C.Sub(t.Circle(j).C).Len()
}

// affectedBy returns the creatures a lasting spell acts on: the disk it
// lies on for a targeted spell, else the spell disk's "affected" list, else
// the spell's area around the disk it lies on (its caster).
func affectedBy(t *engine.Table, i, on int, sp Spell) ([]int, string, error) {
	if sp.Area != AreaAround && sp.Area != AreaContact {
		return []int{on}, "target", nil
	}
	d := t.Disk(i)
	if raw, ok := d.Extra["affected"]; ok {
		var ids []string
		if err := json.Unmarshal(raw, &ids); err != nil {
			return nil, "", fmt.Errorf("spell disk %q: field \"affected\" must be a list of disk ids: %v", d.ID, err)
		}
		out, err := targetIndices(t, ids)
		if err != nil {
			return nil, "", fmt.Errorf("spell disk %q: affected: %w", d.ID, err)
		}
		return out, "field", nil
	}
	var out []int
	switch normalise(sp.Name) {
	case normalise("Protection"):
		out = append(out, on)
		c := creatureContacts(t, nil)
		for j := range t.Len() {
			if j != on && IsCreature(t.Disk(j)) && c.InContact(on, j) {
				out = append(out, j)
			}
		}
	case normalise("Zap"):
		// "tous les Disks à portée", the range being "30cm de rayon autour
		// du lanceur": the caster too.
		out = append(out, on)
		for _, j := range t.WithinOfDisk(on, ZapRange) {
			if IsCreature(t.Disk(j)) {
				out = append(out, j)
			}
		}
	default: // Décrépitude
		for _, j := range t.WithinOfDisk(on, DecayRange) {
			if IsCreature(t.Disk(j)) && models.Enemies(t.Disk(on), t.Disk(j)) {
				out = append(out, j)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), "layout", nil
}
