package diskwars

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"tableref/engine"
)

// Name is the ruleset's name for --rules.
const Name = "diskwars"

// Ruleset is Diskwars (1999) as an engine.Ruleset.
type Ruleset struct{}

// Name returns "diskwars".
func (Ruleset) Name() string { return Name }

// Summary says what the ruleset decides.
func (Ruleset) Summary() string {
	return "Diskwars (1999): who may shoot, missile damage from dropped tokens, top-down melee, wounds and casualties"
}

// Result is what one turn's missile and Combat phases make of a table.
type Result struct {
	// Spells are the spell disks left on the table whose effects last
	// this turn (Bouclier, Rune de protection, Protection, ...).
	Spells []LaidSpell `json:"spells"`
	// Shooters says which archers may shoot and at whom.
	Shooters []Shooter `json:"shooters"`
	// Missiles is the damage of every projectile token.
	Missiles []MissileHit `json:"missiles"`
	// MissileCasualties are the disks destroyed in the missile phase.
	MissileCasualties []string `json:"missile_casualties"`
	// Combats are the combats of the Combat phase, in the order resolved.
	Combats []Combat `json:"combats"`
	// Blocked lists the creatures another creature lies on: they cannot be
	// activated.
	Blocked []string `json:"blocked"`
	// Attacked lists the disks that attacked in the Combat phase.
	Attacked []string `json:"attacked"`
	// Casualties are every disk destroyed this turn, in order.
	Casualties []string `json:"casualties"`
	// Dealt is the damage dealt to each disk this turn (missiles, melee).
	Dealt map[string]int `json:"dealt"`
	// Wounds and Damage are the wounds taken and the damage held by the
	// surviving disks after the Combat phase (only those above zero).
	Wounds map[string]int `json:"wounds"`
	Damage map[string]int `json:"damage"`
	// Creatures are the values used for each creature that took part,
	// bonuses (Berserk) applied.
	Creatures []Creature     `json:"creatures"`
	Log       []engine.Event `json:"-"`
	Warnings  []string       `json:"-"`
}

// Resolve plays the missile phase (the projectile tokens on the table) and
// then the Combat phase of one turn on the table. Damage already on a disk
// (its "damage" field, from spells) counts from the start, and the spell
// disks left on their targets apply their lasting effects (effects.go). It
// does not change the table.
func Resolve(t *engine.Table) (Result, error) {
	s := newTurnState(t)
	fx, err := SpellEffects(t)
	if err != nil {
		return Result{}, err
	}
	s.fx, s.warnings = fx, append(s.warnings, fx.Warnings...)
	s.warnings = append(s.warnings, spentWarnings(t)...)
	if err := s.loadHeld(); err != nil {
		return Result{}, err
	}
	for _, ls := range fx.Laid {
		who := strings.Join(ls.Affected, ", ")
		if who == "" {
			who = "no disk"
		}
		s.log = append(s.log, engine.Event{Phase: "start", From: ls.Disk, To: ls.On, Kind: "spell",
			Text: fmt.Sprintf("%s (%s) lies on %s: %s; affects %s", ls.Spell, ls.Disk, ls.On, ls.Effect, who)})
	}
	r := Result{MissileCasualties: []string{}, Blocked: []string{}, Attacked: []string{}, Spells: fx.Laid}
	if r.Shooters, err = shooters(t, fx); err != nil {
		return Result{}, err
	}
	if r.Shooters == nil {
		r.Shooters = []Shooter{}
	}
	r.Missiles = MissileHits(t)
	if r.Missiles == nil {
		r.Missiles = []MissileHit{}
	}
	for k := range r.Missiles {
		r.Missiles[k].Immune = immuneAmong(t, fx, r.Missiles[k].Disks)
	}
	if err := s.resolveMissiles(r.Missiles); err != nil {
		return Result{}, err
	}
	for _, i := range s.order {
		if s.phase[i] == "missile" {
			r.MissileCasualties = append(r.MissileCasualties, t.ID(i))
		}
	}
	if r.Combats, err = s.resolveMelee(); err != nil {
		return Result{}, err
	}
	if r.Combats == nil {
		r.Combats = []Combat{}
	}
	s.fill(&r)
	return r, nil
}

// loadHeld reads the values of every creature holding damage from
// earlier in the turn (its "damage" field), so that a pile already worth a
// wound is taken at the start, whether or not the disk is hit or fights.
func (s *turnState) loadHeld() error {
	for i, d := range s.t.Disks() {
		if IsCreature(d) && !spent(d) && d.Damage > 0 {
			if _, err := s.creature(i); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *turnState) fill(r *Result) {
	c := creatureContacts(s.t, nil)
	for i, d := range s.t.Disks() {
		if IsCreature(d) && len(blockersIn(c, i)) > 0 {
			r.Blocked = append(r.Blocked, d.ID)
		}
		if s.attacked[i] {
			r.Attacked = append(r.Attacked, d.ID)
		}
	}
	r.Casualties = s.t.IDs(s.order)
	r.Dealt, r.Wounds, r.Damage = map[string]int{}, map[string]int{}, map[string]int{}
	idx := slices.Sorted(maps.Keys(s.creatures))
	for _, i := range idx {
		r.Creatures = append(r.Creatures, s.creatures[i])
		if s.dealt[i] > 0 {
			r.Dealt[s.id(i)] = s.dealt[i]
		}
	}
	if r.Creatures == nil {
		r.Creatures = []Creature{}
	}
	s.survivors(r)
	r.Log = s.log
	r.Warnings = s.warnings
}

// survivors fills the wounds and the damage held by every creature left on
// the table, whether or not it took part this turn (those that did not
// keep their "wounds_taken"; their "damage" was read at the start).
// Spent creatures are left out: they should already be off the table.
func (s *turnState) survivors(r *Result) {
	for i, d := range s.t.Disks() {
		if !IsCreature(d) || spent(d) || s.dead[i] {
			continue
		}
		w, dmg := d.WoundsTaken, d.Damage
		if _, ok := s.creatures[i]; ok {
			w, dmg = s.wounds[i], s.damage[i]
		}
		if w > 0 {
			r.Wounds[d.ID] = w
		}
		if dmg > 0 {
			r.Damage[d.ID] = dmg
		}
	}
}

// Analyze resolves the turn (Resolve) and fills the report: damage dealt
// per disk, the melee outcome (every casualty of the turn, and the wounds
// and damage left on the survivors), the combats as engagements with the
// order they were resolved in, the log, and the details.
func (Ruleset) Analyze(t *engine.Table) (engine.Outcome, error) {
	r, err := Resolve(t)
	if err != nil {
		return engine.Outcome{}, err
	}
	o := engine.Outcome{
		Damage:   r.Dealt,
		Melee:    &engine.Melee{Casualties: r.Casualties, Wounds: r.Wounds, Damage: r.Damage},
		Log:      r.Log,
		Warnings: r.Warnings,
		Details:  Details{FirstPlayer: t.Layout().FirstPlayer, Result: r},
	}
	if o.Melee.Casualties == nil {
		o.Melee.Casualties = []string{}
	}
	// The hits the turn was resolved with: creatures only, read through
	// reminder spell disks.
	o.Hits = []engine.Hit{}
	for _, h := range r.Missiles {
		o.Hits = append(o.Hits, engine.Hit{Token: h.Token, Disks: h.Disks})
	}
	for k, c := range r.Combats {
		o.Engagements = append(o.Engagements, engine.Engagement{ID: c.ID, Attackers: c.Attackers, Defenders: c.Defenders})
		for _, prev := range r.Combats[:k] {
			if dependsOn(c, prev) {
				o.ResolveBefore = append(o.ResolveBefore, [2]string{prev.ID, c.ID})
			}
		}
	}
	return o, nil
}

// dependsOn reports whether combat c had to wait for prev: one of its
// attackers defended in prev.
func dependsOn(c, prev Combat) bool {
	for _, a := range c.Attackers {
		if slices.Contains(prev.Defenders, a) {
			return true
		}
	}
	return false
}

// Details is what the diskwars ruleset reports under "details".
type Details struct {
	FirstPlayer string `json:"first_player,omitempty"`
	Result
}
