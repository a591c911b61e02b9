package diskwars

import (
	"fmt"
	"math"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Cast is a spell a caster means to cast on a table.
type Cast struct {
	Caster string
	Spell  string
	// Targets are the disks chosen, for spells that choose.
	Targets []string
	// At is a place on the table: where a magic wall goes, where the rain
	// of steel falls, where a teleported disk lands, or a point giving the
	// direction a fireball is pushed in.
	At *models.TablePoint
	// Radius of the spell disk, for a wall or a fireball; 0 means
	// DefaultSpellRadius.
	Radius models.Centimetres
}

// DefaultSpellRadius is the radius of a spell disk when none is given, cm.
const DefaultSpellRadius models.Centimetres = 2.5

// Push is where a disk goes when a spell moves it.
type Push struct {
	Disk string  `json:"disk"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
}

// CastResult is what a spell does on the table, and whether it may be cast.
type CastResult struct {
	Spell       Spell  `json:"spell"`
	Caster      string `json:"caster"`
	CasterLevel int    `json:"caster_level"`
	Legal       bool   `json:"legal"`
	// InRange are the creatures within the spell's range, nearest first.
	InRange []Target `json:"in_range,omitempty"`
	// Affected are the disks the spell acts on.
	Affected []string `json:"affected"`
	// Power is the attack each affected disk suffers (0 for none).
	Power int `json:"power,omitempty"`
	// Pushes are the moves of Onde de choc, in the order they are made.
	Pushes   []Push   `json:"pushes,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// CheckCast works out what a spell does on the table and whether the
// caster may cast it: a spellcaster of at least the spell's level, neither
// activated nor blocked, with its targets or place within range (edge to
// edge). Unknown casters and spells are errors.
func CheckCast(t *engine.Table, c Cast) (CastResult, error) {
	s, ok := LookupSpell(c.Spell)
	if !ok {
		return CastResult{}, fmt.Errorf("unknown spell %q (see tableref spell list)", c.Spell)
	}
	ci, ok := t.Index(c.Caster)
	if !ok {
		return CastResult{}, fmt.Errorf("no disk %q on the table", c.Caster)
	}
	if c.Radius <= 0 {
		c.Radius = DefaultSpellRadius
	}
	caster := t.Disk(ci)
	r := CastResult{Spell: s, Caster: caster.ID, CasterLevel: CasterLevel(caster), Affected: []string{}, Power: s.Power}
	switch {
	case r.CasterLevel == 0:
		r.problemf("%s is not a spellcaster (keyword spellcaster:N)", caster.ID)
	case !CanCast(r.CasterLevel, s):
		r.problemf("%s is level %d, the spell is level %d", caster.ID, r.CasterLevel, s.Level)
	}
	// Contre-sort too: "Seul un magicien de niveau 3 non activé peut le
	// lancer."
	if caster.Activated {
		r.problemf("%s was already activated this turn", caster.ID)
	}
	if b := blockers(t, ci); len(b) > 0 {
		r.problemf("%s is blocked by %s", caster.ID, joinIDs(t, b))
	}
	if s.Range > 0 {
		r.InRange = creaturesWithin(t, ci, s.Range)
	}
	targets, err := targetIndices(t, c.Targets)
	if err != nil {
		return CastResult{}, err
	}
	// "Note importante": a "Disk" of the rules is a creature; terrain and
	// spell disks are no targets.
	for _, j := range targets {
		if !IsCreature(t.Disk(j)) {
			r.problemf("%s is not a creature: %s chooses creatures", t.ID(j), s.Name)
		}
	}
	area{t: t, ci: ci, s: s, c: c, targets: targets, r: &r}.apply()
	r.Legal = len(r.Problems) == 0
	return r, nil
}

func (r *CastResult) problemf(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

func targetIndices(t *engine.Table, ids []string) ([]int, error) {
	var out []int
	for _, id := range ids {
		i, ok := t.Index(id)
		if !ok {
			return nil, fmt.Errorf("no disk %q on the table", id)
		}
		out = append(out, i)
	}
	return out, nil
}

// creaturesWithin returns the creatures within r of disk i, nearest first.
func creaturesWithin(t *engine.Table, i int, r models.Centimetres) []Target {
	var out []Target
	for _, j := range t.WithinOfDisk(i, r) {
		if IsCreature(t.Disk(j)) {
			out = append(out, Target{Disk: t.ID(j), Edge: float64(t.Edge(i, j).Round2())})
		}
	}
	slices.SortStableFunc(out, func(a, b Target) int { return cmpF(a.Edge, b.Edge) })
	return out
}

// area applies one spell's area rule.
type area struct {
	t       *engine.Table
	ci      int
	s       Spell
	c       Cast
	targets []int
	r       *CastResult
}

func (a area) apply() {
	switch a.s.Area {
	case AreaSelf:
		a.r.Affected = []string{a.t.ID(a.ci)}
	case AreaContact:
		a.contact()
	case AreaAround:
		a.around()
	case AreaChoose:
		a.choose()
	case AreaChain:
		a.chain()
	case AreaTarget:
		a.target()
	case AreaPlace:
		a.place()
	case AreaLine:
		a.line()
	}
}

// contact: Protection, the caster and every creature in contact with it.
func (a area) contact() {
	a.r.Affected = append(a.r.Affected, a.t.ID(a.ci))
	c := creatureContacts(a.t, nil)
	for j := range a.t.Len() {
		if j != a.ci && IsCreature(a.t.Disk(j)) && c.InContact(a.ci, j) {
			a.r.Affected = append(a.r.Affected, a.t.ID(j))
		}
	}
}

// around: Décrépitude and Onde de choc act on the enemies within range
// (Onde de choc only on those not blocked, in increasing toughness, each
// flipped once straight away from the caster); Zap on every creature
// within range, the caster included ("tous les Disks à portée", the range
// being "30cm de rayon autour du lanceur").
func (a area) around() {
	me := a.t.Disk(a.ci)
	var hit []int
	if normalise(a.s.Name) == normalise("Zap") {
		hit = append(hit, a.ci)
	}
	for _, tg := range a.r.InRange {
		j, _ := a.t.Index(tg.Disk)
		enemy := models.Enemies(me, a.t.Disk(j))
		switch normalise(a.s.Name) {
		case normalise("Zap"):
			hit = append(hit, j)
		case normalise("Onde de choc"):
			if enemy && !Blocked(a.t, j) {
				hit = append(hit, j)
			}
		default:
			if enemy {
				hit = append(hit, j)
			}
		}
	}
	if normalise(a.s.Name) == normalise("Onde de choc") {
		slices.SortStableFunc(hit, func(x, y int) int { return toughnessOf(a.t.Disk(x)) - toughnessOf(a.t.Disk(y)) })
		for _, j := range hit {
			a.r.Pushes = append(a.r.Pushes, a.pushAway(j))
		}
	}
	a.r.Affected = append(a.r.Affected, a.t.IDs(hit)...)
}

func toughnessOf(d models.Disk) int {
	v, _ := d.Stat("toughness")
	return v
}

// pushAway flips disk j once, its centre moving one diameter straight
// away from the caster's centre.
func (a area) pushAway(j int) Push {
	c, o := a.t.Circle(j), a.t.Circle(a.ci)
	dir := c.C.Sub(o.C)
	if dir.Len() == 0 {
		dir = engine.Vec{X: 1}
	}
	n := c.C.Add(dir.Scale(2 * c.R / dir.Len()))
	return Push{Disk: a.t.ID(j), X: round2f(n.X), Y: round2f(n.Y)}
}

func round2f(v float64) float64 { return math.Round(v*100) / 100 }

// choose: Paralysie, up to Targets creatures within range.
func (a area) choose() {
	if len(a.targets) > a.s.Targets {
		a.r.problemf("%s chooses at most %d disks, got %d", a.s.Name, a.s.Targets, len(a.targets))
	}
	for _, j := range a.targets {
		if a.inRange(j) {
			a.r.Affected = append(a.r.Affected, a.t.ID(j))
		}
	}
}

func (a area) inRange(j int) bool {
	if e := a.t.Edge(a.ci, j); e > a.s.Range {
		a.r.problemf("%s is %.2f cm from %s, beyond the %v cm of %s", a.t.ID(j), float64(e), a.t.ID(a.ci), a.s.Range, a.s.Name)
		return false
	}
	return true
}

// chain: Choc électrique, a target within range and every creature linked
// to it by contacts between creatures (terrain does not carry it).
func (a area) chain() {
	if len(a.targets) != 1 {
		a.r.problemf("%s needs one target, got %d", a.s.Name, len(a.targets))
		return
	}
	if !a.inRange(a.targets[0]) || !IsCreature(a.t.Disk(a.targets[0])) {
		return
	}
	a.r.Affected = a.t.IDs(CreatureChain(a.t, a.targets[0]))
}

// CreatureChain returns creature i and every creature linked to it by a
// chain of contacts between creatures (the rules' relation: a spell disk
// between two creatures does not break the chain), ascending.
func CreatureChain(t *engine.Table, i int) []int {
	c := creatureContacts(t, nil)
	seen := map[int]bool{i: true}
	queue := []int{i}
	for q := 0; q < len(queue); q++ {
		for j := range t.Len() {
			if !seen[j] && IsCreature(t.Disk(j)) && c.InContact(queue[q], j) {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	slices.Sort(queue)
	return queue
}

// target: spells aimed at Targets disks within range; Destin swaps two
// disks one of which lies on the other; Déplacement needs two disks out of
// combat, one of them within range; Téléportation lands at most 30 cm from
// where the disk stood, edge to edge.
func (a area) target() {
	want := max(a.s.Targets, 1)
	if len(a.targets) != want {
		a.r.problemf("%s needs %d target(s), got %d", a.s.Name, want, len(a.targets))
		return
	}
	switch normalise(a.s.Name) {
	case normalise("Déplacement"):
		if a.t.Edge(a.ci, a.targets[0]) > a.s.Range && a.t.Edge(a.ci, a.targets[1]) > a.s.Range {
			a.r.problemf("neither %s nor %s is within %v cm of %s", a.t.ID(a.targets[0]), a.t.ID(a.targets[1]), a.s.Range, a.t.ID(a.ci))
		}
		a.notInCombat()
	case normalise("Destin"):
		for _, j := range a.targets {
			a.inRange(j)
		}
		if x, y := a.targets[0], a.targets[1]; !creatureContacts(a.t, nil).InContact(x, y) {
			a.r.problemf("neither %s nor %s lies on the other: %s swaps two disks in combat or blocked", a.t.ID(x), a.t.ID(y), a.s.Name)
		}
	case normalise("Téléportation"):
		j := a.targets[0]
		if Blocked(a.t, j) {
			a.r.problemf("%s is blocked", a.t.ID(j))
		}
		if a.c.At != nil {
			// Edge to edge ("Précision sur les mesures"), between the
			// disk where it stands and the disk where it lands.
			from := a.t.Circle(j)
			if e := (engine.Vec{X: float64(a.c.At.X), Y: float64(a.c.At.Y)}).Sub(from.C).Len() - 2*from.R; e > TeleportRange {
				a.r.problemf("%s would land %.2f cm from where it stands, edge to edge, more than %v cm", a.t.ID(j), e, TeleportRange)
			}
		}
	default:
		if a.s.Range > 0 {
			for _, j := range a.targets {
				a.inRange(j)
			}
		}
	}
	for _, j := range a.targets {
		a.targetRules(j)
	}
	a.r.Affected = a.t.IDs(a.targets)
}

// TeleportRange is how far Téléportation moves a disk, edge to edge, cm.
const TeleportRange = 30

// notInCombat: Déplacement "choisissez deux Disks qui ne sont pas en
// combat": neither lies on an enemy creature nor has one lying on it.
func (a area) notInCombat() {
	c := creatureContacts(a.t, nil)
	for _, j := range a.targets {
		var foes []int
		for k := range a.t.Len() {
			if IsCreature(a.t.Disk(k)) && models.Enemies(a.t.Disk(j), a.t.Disk(k)) && c.InContact(j, k) {
				foes = append(foes, k)
			}
		}
		if len(foes) > 0 {
			a.r.problemf("%s is in combat with %s: %s swaps two disks not in combat", a.t.ID(j), joinIDs(a.t, foes), a.s.Name)
		}
	}
}

// targetRules checks what the spell texts ask of their target: Répulsion
// "un Disk non activé ... qui n'est pas bloqué"; Prise de tête and
// Contrôle "un Disk ennemi non activé"; Vigueur "un marqueur d'activation
// sur un Disk ami"; Soins "enlève un marqueur de Blessure" of "un Disk qui
// possède plusieurs blessures".
func (a area) targetRules(j int) {
	me, d := a.t.Disk(a.ci), a.t.Disk(j)
	switch normalise(a.s.Name) {
	case normalise("Répulsion"):
		if d.Activated {
			a.r.problemf("%s already has an activation marker", d.ID)
		}
		if Blocked(a.t, j) {
			a.r.problemf("%s is blocked", d.ID)
		}
	case normalise("Prise de tête"), normalise("Contrôle"):
		if !models.Enemies(me, d) {
			a.r.problemf("%s is not an enemy of %s", d.ID, me.ID)
		}
		if d.Activated {
			a.r.problemf("%s already has an activation marker", d.ID)
		}
	case normalise("Vigueur"):
		if models.Enemies(me, d) {
			a.r.problemf("%s is not a friend of %s", d.ID, me.ID)
		}
		if !d.Activated {
			a.r.problemf("%s has no activation marker to remove", d.ID)
		}
	case normalise("Soins"):
		if w, _ := d.Stat("wounds"); w < 2 {
			a.r.problemf("%s has a single wound: Soins is cast on a disk with several", d.ID)
		} else if d.WoundsTaken < 1 {
			a.r.problemf("%s has no wound marker to remove", d.ID)
		}
	}
}

// place: Mur magique goes on an empty place within range, with at most
// three walls within 30 cm of it (itself included) and of every wall within
// 30 cm of it; Pluie d'acier falls within range.
func (a area) place() {
	if a.c.At == nil {
		a.r.problemf("%s needs a place on the table (at)", a.s.Name)
		return
	}
	p := engine.Vec{X: float64(a.c.At.X), Y: float64(a.c.At.Y)}
	spell := engine.Circle{C: p, R: float64(a.c.Radius)}
	if normalise(a.s.Name) != normalise("Mur magique") {
		if d := p.Sub(a.t.Circle(a.ci).C).Len() - a.t.Circle(a.ci).R; d > float64(a.s.Range) {
			a.r.problemf("the place is %.2f cm from %s, beyond %v cm", d, a.t.ID(a.ci), a.s.Range)
		}
		return
	}
	if e := engine.Edge(spell, a.t.Circle(a.ci)); e > float64(a.s.Range) {
		a.r.problemf("the wall would be %.2f cm from %s, beyond %v cm", e, a.t.ID(a.ci), a.s.Range)
	}
	var near []int // the walls within WallRadius of the new one
	for j := range a.t.Len() {
		d := a.t.Disk(j)
		if !d.IsTerrain() && engine.Overlap(spell, a.t.Circle(j)) {
			a.r.problemf("the place is not empty: the wall would overlap %s", d.ID)
		}
		if isWall(d) && engine.Edge(spell, a.t.Circle(j)) <= WallRadius {
			near = append(near, j)
		}
	}
	if n := len(near) + 1; n > MaxWalls {
		a.r.problemf("there would be %d walls within %v cm; at most %d", n, WallRadius, MaxWalls)
	}
	// The limit holds around every wall: the new one counts for each
	// wall within 30 cm of it.
	for _, w := range near {
		if n := a.wallsNear(w) + 1; n > MaxWalls {
			a.r.problemf("there would be %d walls within %v cm of %s; at most %d", n, WallRadius, a.t.ID(w), MaxWalls)
		}
	}
}

// Mur magique: "Il ne peut pas y avoir plus de trois murs dans un rayon de
// 30 cm", read as at most MaxWalls walls within WallRadius of any wall,
// edge to edge, the wall itself included.
const (
	MaxWalls   = 3
	WallRadius = 30
)

// wallsNear counts the walls on the table within WallRadius of wall w,
// edge to edge, w included.
func (a area) wallsNear(w int) int {
	n := 0
	for j := range a.t.Len() {
		if isWall(a.t.Disk(j)) && (j == w || a.t.Edge(w, j) <= WallRadius) {
			n++
		}
	}
	return n
}

// line: Boule de feu, pushed straight from the caster towards At; the
// first enemy creature the spell disk touches suffers the attack. Friends
// on the way are passed.
func (a area) line() {
	if a.c.At == nil {
		a.r.problemf("%s needs a direction: a point (at) to push it towards", a.s.Name)
		return
	}
	o := a.t.Circle(a.ci).C
	u := (engine.Vec{X: float64(a.c.At.X), Y: float64(a.c.At.Y)}).Sub(o)
	if u.Len() == 0 {
		a.r.problemf("the direction point is the caster's centre")
		return
	}
	u = u.Scale(1 / u.Len())
	best, bestS := -1, math.Inf(1)
	for j := range a.t.Len() {
		if j == a.ci || !IsCreature(a.t.Disk(j)) || !models.Enemies(a.t.Disk(a.ci), a.t.Disk(j)) {
			continue
		}
		if s, ok := firstContact(o, u, a.t.Circle(j), float64(a.c.Radius)); ok && s < bestS {
			best, bestS = j, s
		}
	}
	if best >= 0 {
		a.r.Affected = []string{a.t.ID(best)}
	}
}

// firstContact returns how far along the ray o + s·u (s ≥ 0) a disk of
// radius rs first touches circle c.
func firstContact(o, u engine.Vec, c engine.Circle, rs float64) (float64, bool) {
	w := c.C.Sub(o)
	along := w.Dot(u)
	perp2 := w.Dot(w) - along*along
	reach := rs + c.R
	if perp2 > reach*reach {
		return 0, false
	}
	s := along - math.Sqrt(reach*reach-perp2)
	if along+math.Sqrt(reach*reach-perp2) < 0 {
		return 0, false
	}
	return max(s, 0), true
}
