package diskwars

import (
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Projectile is one line of the projectile table ("Tir").
type Projectile struct {
	Kind   string             // arrow, bolt, fireball, boulder
	French string             // its name in the rulebook
	Range  models.Centimetres // maximum range, edge to edge
	Damage int                // damage to each disk it hits
}

// projectiles is the rulebook's table: Flèche 30 cm 2, Carreau 30 cm 3,
// Boule de feu 15 cm 4, Rocher 15 cm 5.
var projectiles = []Projectile{
	{"arrow", "Flèche", 30, 2},
	{"bolt", "Carreau", 30, 3},
	{"fireball", "Boule de feu", 15, 4},
	{"boulder", "Rocher", 15, 5},
}

// Projectiles returns the projectile table.
func Projectiles() []Projectile { return slices.Clone(projectiles) }

// ProjectileOf returns the table line of a projectile kind, English or
// French ("flèche", "carreau", ...).
func ProjectileOf(kind string) (Projectile, bool) {
	k, ok := models.ProjectileKind(kind)
	if !ok {
		return Projectile{}, false
	}
	for _, p := range projectiles {
		if p.Kind == k {
			return p, true
		}
	}
	return Projectile{}, false
}

// Shooter says whether an archer may shoot this turn and at whom.
type Shooter struct {
	Disk   string  `json:"disk"`
	Kind   string  `json:"kind"`
	Count  int     `json:"count"`
	Damage int     `json:"damage"`
	Range  float64 `json:"range_cm"`
	// MayShoot is true when the four conditions of "Comment tirer" hold.
	MayShoot bool     `json:"may_shoot"`
	Reasons  []string `json:"reasons,omitempty"`
	// Targets are the enemy creatures in range, nearest first.
	Targets []Target `json:"targets"`
	// Marked are the enemies in range under Tireur d'élite: "le
	// propriétaire du lanceur de sort peut placer tous les projectiles des
	// tireurs à portée sur le Disk ciblé" (lay the tokens on it, then
	// analyse the table as usual).
	Marked []string `json:"marked,omitempty"`
}

// Target is a disk and its edge-to-edge distance from the shooter or caster.
type Target struct {
	Disk string  `json:"disk"`
	Edge float64 `json:"edge_cm"`
	// Immune names the spell disk (Rune de protection) that makes the
	// target immune to projectiles, "" for none.
	Immune string `json:"immune,omitempty"`
}

// Shooters lists every creature with a missile weapon and says whether it
// may shoot: it has no activation marker, it is not blocked, it does not
// lie on an enemy, and at least one enemy creature is within range, edge
// to edge. An unknown missile kind is an error naming the disk.
func Shooters(t *engine.Table) ([]Shooter, error) {
	fx, err := SpellEffects(t)
	if err != nil {
		return nil, err
	}
	return shooters(t, fx)
}

func shooters(t *engine.Table, fx Effects) ([]Shooter, error) {
	var out []Shooter
	c := creatureContacts(t, nil)
	for i, d := range t.Disks() {
		if !IsCreature(d) || spent(d) || d.MissileKind == "" {
			continue
		}
		p, ok := ProjectileOf(d.MissileKind)
		if !ok {
			return nil, fmt.Errorf("disk %q: unknown missile_kind %q (want arrow, bolt, fireball or boulder)", d.ID, d.MissileKind)
		}
		out = append(out, shooter(c, fx, i, p))
	}
	return out, nil
}

func shooter(c contacts, fx Effects, i int, p Projectile) Shooter {
	t := c.t
	d := t.Disk(i)
	s := Shooter{Disk: d.ID, Kind: p.Kind, Count: d.MissileCount, Damage: p.Damage, Range: float64(p.Range), Targets: []Target{}}
	s.Targets = enemiesWithin(t, i, p.Range)
	for k, tg := range s.Targets {
		j, _ := t.Index(tg.Disk)
		e := fx.Of(j)
		s.Targets[k].Immune = e.MissileImmune
		if e.Marked != "" {
			s.Marked = append(s.Marked, tg.Disk)
		}
	}
	if d.MissileCount <= 0 {
		s.Reasons = append(s.Reasons, "it has no missile_count")
	}
	if d.Activated {
		s.Reasons = append(s.Reasons, "it was activated this turn")
	}
	if b := blockersIn(c, i); len(b) > 0 {
		s.Reasons = append(s.Reasons, "it is blocked by "+joinIDs(t, b))
	}
	if e := enemyPinnedIn(c, i); len(e) > 0 {
		s.Reasons = append(s.Reasons, "it lies on the enemy "+joinIDs(t, e))
	}
	if len(s.Targets) == 0 {
		s.Reasons = append(s.Reasons, fmt.Sprintf("no enemy within %v cm", p.Range))
	}
	s.MayShoot = len(s.Reasons) == 0
	return s
}

// enemiesWithin returns the enemy creatures within r of disk i, edge to
// edge, nearest first.
func enemiesWithin(t *engine.Table, i int, r models.Centimetres) []Target {
	out := []Target{}
	for _, j := range t.WithinOfDisk(i, r) {
		if IsCreature(t.Disk(j)) && !spent(t.Disk(j)) && models.Enemies(t.Disk(i), t.Disk(j)) {
			out = append(out, Target{Disk: t.ID(j), Edge: float64(t.Edge(i, j).Round2())})
		}
	}
	slices.SortStableFunc(out, func(a, b Target) int { return cmpF(a.Edge, b.Edge) })
	return out
}

// MissileHit is the damage one dropped projectile does.
type MissileHit struct {
	Token  string   `json:"token"`
	Kind   string   `json:"kind"`
	Damage int      `json:"damage"`
	Disks  []string `json:"disks"`
	// Missed is true when the token hits no creature (it lies on the bare
	// table or on terrain only): it is taken off at once.
	Missed bool `json:"missed,omitempty"`
	// Immune are the disks hit that take no damage from projectiles (Rune
	// de protection).
	Immune []string `json:"immune,omitempty"`
}

// MissileHits returns the damage of every projectile token on the table:
// each creature a projectile hits (the topmost of the creatures it touches,
// through the projectiles it lies on, as engine.Table.Hits, but reading
// through spell disks) takes the projectile's damage, friend or foe
// ("erreur d'appréciation"), in range of the shooter or not. A token that
// hits only terrain or spell disks misses. Terrain and spell disks take no
// damage; spent creatures (all wounds taken) are read as off the table.
func MissileHits(t *engine.Table) []MissileHit {
	var out []MissileHit
	c := creatureContacts(t, nil)
	for k := range t.TokenLen() {
		tok := t.Token(k)
		p, ok := ProjectileOf(tok.Kind)
		if !ok {
			continue
		}
		h := MissileHit{Token: tok.ID, Kind: p.Kind, Damage: p.Damage, Disks: []string{}}
		h.Disks = append(h.Disks, t.IDs(creatureHits(c, k))...)
		slices.Sort(h.Disks) // in id order, whatever the order of the layout
		h.Missed = len(h.Disks) == 0
		out = append(out, h)
	}
	return out
}

// creatureHits returns the creatures projectile token k hits: the
// topmost of the creatures it touches ("si un Disk en bloque un autre et
// que le projectile touche les deux, seul celui qui se trouve au-dessus
// subit des dommages"), "on top" read in the rules' contact relation.
// Spell disks lying on a creature as reminders are read through ("Un
// projectile ... touchant même partiellement un Disk": the reminder is not
// a Disk), so are terrain; and a reminder lying between two creatures does
// not keep the upper one from covering the lower.
func creatureHits(c contacts, k int) []int {
	t := c.t
	var touched, out []int
	for _, i := range t.Touches(k) {
		if IsCreature(t.Disk(i)) && !spent(t.Disk(i)) {
			touched = append(touched, i)
		}
	}
	for _, i := range touched {
		covered := false
		for _, j := range touched {
			if c.OnTop(j, i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, i)
		}
	}
	return out
}

// resolveMissiles applies the projectile hits in token order; the disks
// destroyed leave the table at the end of the phase.
func (s *turnState) resolveMissiles(hits []MissileHit) error {
	for _, h := range hits {
		for _, id := range h.Disks {
			i, _ := s.t.Index(id)
			if _, err := s.creature(i); err != nil {
				return err
			}
			if by := s.fx.Of(i).MissileImmune; by != "" {
				s.log = append(s.log, engine.Event{Phase: "missile", From: h.Token, To: id, Kind: "immune",
					Text: fmt.Sprintf("%s %s hits %s, immune to projectiles: %s", h.Kind, h.Token, id, by)})
				continue
			}
			if !s.alive(i) {
				s.log = append(s.log, engine.Event{Phase: "missile", From: h.Token, To: id, Kind: "hit",
					Text: fmt.Sprintf("%s %s also hits %s, already destroyed", h.Kind, h.Token, id)})
				continue
			}
			s.hit(i, blow{from: h.Token, phase: "missile", kind: "hit", amount: h.Damage,
				text: fmt.Sprintf("%s %s hits %s: %d damage", h.Kind, h.Token, id, h.Damage)}, true)
		}
	}
	return nil
}

func joinIDs(t *engine.Table, idx []int) string {
	out := ""
	for k, i := range idx {
		if k > 0 {
			out += ", "
		}
		out += t.ID(i)
	}
	return out
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// immuneAmong returns the disks of ids immune to projectiles.
func immuneAmong(t *engine.Table, fx Effects, ids []string) []string {
	var out []string
	for _, id := range ids {
		if i, ok := t.Index(id); ok && fx.Of(i).MissileImmune != "" {
			out = append(out, id)
		}
	}
	return out
}
