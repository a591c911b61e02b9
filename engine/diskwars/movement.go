package diskwars

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"tableref/engine"
	"tableref/models"
)

// Movement by flipping
//
// A flip turns a disk over one of its edge points: its centre moves by
// exactly one diameter, in any direction. A disk may flip up to its
// movement. It stops at once when it comes to overlap another disk, so no
// landing but the last may overlap a disk; a flyer may land over
// non-flying disks on the way but stops on an enemy flyer. Nobody passes
// or stops on a magic wall (a spell disk named "Mur magique"); a flyer
// passes over it but does not stop on it. Ending on an enemy creature is
// an attack.

// MoveOptions tunes the check of a move. The zero value works.
type MoveOptions struct {
	// Bonus is added to the disk's movement, for bonuses the table does
	// not show. Vitesse and Zap are read from their spell disks, and the
	// Elf Bard from Bard.
	Bonus int
	// Bard is the id of a disk with the special skill "bard" (Barde elfe:
	// "A pour donner à un Disk NA dans un rayon de 30cm +3M ce tour") that
	// gave the moving disk +3 movement this turn.
	Bard string
	// Ambush says the disk did not flip but was placed on an enemy by its
	// special skill "ambush" (Embuscade).
	Ambush bool
	// Tolerance is how far, in cm, a measured position may be from an
	// exact flip; 0 means DefaultTolerance.
	Tolerance models.Centimetres
}

// DefaultTolerance is the measuring error allowed on positions, in cm.
const DefaultTolerance models.Centimetres = 0.5

// Move is the verdict on one activation seen as two layouts.
type Move struct {
	Disk     string  `json:"disk"`
	Distance float64 `json:"distance_cm"`
	// MinFlips is the least number of flips that can bring the disk from
	// where it was to where it is, avoiding the disks in the way; -1 when
	// no path of up to 12 flips exists; 0 for an ambush (no flip).
	MinFlips int `json:"min_flips"`
	// Movement is the disk's movement with every bonus.
	Movement int `json:"movement"`
	// Bonuses say where the movement bonuses come from.
	Bonuses []string `json:"bonuses,omitempty"`
	// Ambush is true when the disk was placed by an ambush, not flipped.
	Ambush bool `json:"ambush,omitempty"`
	Legal  bool `json:"legal"`
	// Attack is true when the move ended on an enemy creature.
	Attack   bool     `json:"attack"`
	Attacked []string `json:"attacked,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// maxFlips bounds the path search.
const maxFlips = 12

// CheckMove compares the layouts before and after one activation: exactly
// one creature may have moved (disks are matched by id; spell disks left
// on it as reminders may travel with it). It says how many flips the move
// needed at least, whether it was legal, and whether it ended in an
// attack. The spell disks of the layout before count: Vitesse and Zap add
// movement, Immobilisation forbids the move, Répulsion keeps everyone
// from flying over or ending on its target (effects.go).
func CheckMove(before, after models.Layout, opt MoveOptions) (Move, error) {
	tol := opt.Tolerance
	if tol <= 0 {
		tol = DefaultTolerance
	}
	moved, err := movedDisk(before, after, tol)
	if err != nil {
		return Move{}, err
	}
	tb, ta := engine.NewTable(before), engine.NewTable(after)
	fx, err := SpellEffects(tb)
	if err != nil {
		return Move{}, err
	}
	bi, _ := tb.Index(moved)
	ai, _ := ta.Index(moved)
	d := tb.Disk(bi)
	if !IsCreature(d) {
		return Move{}, fmt.Errorf("disk %q moved, but only a creature moves by flipping (it is of kind %q)", moved, d.Kind)
	}
	// Only the movement counts here ("Tout Disk qui dispose d'une valeur de
	// Mouvement supérieure ou égale à 1, peut se déplacer"): attack,
	// defence and toughness may be missing.
	movement, _ := d.Stat("movement")
	m := Move{Disk: moved, Movement: movement + opt.Bonus}
	if opt.Bonus != 0 {
		m.Bonuses = append(m.Bonuses, fmt.Sprintf("%+d given on the command line", opt.Bonus))
	}
	m.spellBonuses(fx.Of(bi))
	if opt.Bard != "" {
		if err := m.bard(tb, fx, bi, opt.Bard); err != nil {
			return Move{}, err
		}
	}
	start := engine.Vec{X: float64(d.X), Y: float64(d.Y)}
	end := engine.Vec{X: float64(ta.Disk(ai).X), Y: float64(ta.Disk(ai).Y)}
	m.Distance = math.Round(end.Sub(start).Len()*100) / 100
	if d.Activated {
		m.Problems = append(m.Problems, "it was already activated this turn")
	}
	if b := blockers(tb, bi); len(b) > 0 {
		m.Problems = append(m.Problems, "it is blocked by "+joinIDs(tb, b))
	}
	if by := fx.Of(bi).Immobile; by != "" {
		m.Problems = append(m.Problems, "it may not move this activation phase: "+by)
	}
	p := pathFinder{t: tb, i: bi, flying: IsFlying(d), r: float64(d.R), tol: float64(tol), fx: fx}
	if opt.Ambush {
		m.ambush(tb, fx, bi)
	} else {
		m.flips(p, start, end)
	}
	if w := p.landsOnWall(end); w >= 0 {
		m.Problems = append(m.Problems, "it ends on the magic wall "+tb.ID(w))
	}
	for j := range ta.Len() {
		if bj, ok := tb.Index(ta.ID(j)); ok && j != ai && ta.Overlap(ai, j) && fx.Of(bj).Repulsion != "" {
			m.Problems = append(m.Problems, fmt.Sprintf("it ends on %s, on which nobody may land: %s", ta.ID(j), fx.Of(bj).Repulsion))
		}
	}
	for _, j := range enemyPinned(ta, ai) {
		m.Attacked = append(m.Attacked, ta.ID(j))
	}
	m.Attack = len(m.Attacked) > 0
	if m.Ambush && !m.Attack {
		m.Problems = append(m.Problems, "an ambush places the disk on an enemy: it lies on none")
	}
	m.Legal = len(m.Problems) == 0
	return m, nil
}

// spellBonuses adds the movement of Vitesse and Zap.
func (m *Move) spellBonuses(e DiskEffects) {
	if e.Movement == 0 {
		return
	}
	m.Movement += e.Movement
	for _, sp := range e.Spells {
		switch {
		case strings.HasPrefix(sp, "Vitesse "):
			m.Bonuses = append(m.Bonuses, fmt.Sprintf("%+d from %s", SpeedBonus, sp))
		case strings.HasPrefix(sp, "Zap "):
			m.Bonuses = append(m.Bonuses, fmt.Sprintf("%+d from %s", ZapBonus, sp))
		}
	}
}

// bard checks the Elf Bard's special skill and adds its bonus: the bard
// has the skill and may use it (not under Prise de tête, not blocked), and
// the moving disk is within 30 cm of it, edge to edge. The moving disk's
// activation marker is checked with the move.
func (m *Move) bard(t *engine.Table, fx Effects, mover int, id string) error {
	b, ok := t.Index(id)
	if !ok {
		return fmt.Errorf("bard %q is not on the table before the move", id)
	}
	bd := t.Disk(b)
	m.Movement += BardBonus
	e := t.Edge(b, mover)
	m.Bonuses = append(m.Bonuses, fmt.Sprintf("%+d from the bard %s, %.2f cm away", BardBonus, id, float64(e.Round2())))
	switch {
	case b == mover:
		m.Problems = append(m.Problems, "the bard gives its bonus to another disk, not to itself")
	case !HasSkill(bd, SkillBard):
		m.Problems = append(m.Problems, fmt.Sprintf("%s has no special skill %q", id, SkillBard))
	case e > BardRange:
		m.Problems = append(m.Problems, fmt.Sprintf("%s is %.2f cm from the bard %s, beyond %v cm", t.ID(mover), float64(e.Round2()), id, BardRange))
	}
	if by := fx.Of(b).NoSkills; by != "" {
		m.Problems = append(m.Problems, fmt.Sprintf("the bard %s cannot use its special skills: %s", id, by))
	}
	if bl := blockers(t, b); len(bl) > 0 {
		m.Problems = append(m.Problems, fmt.Sprintf("the bard %s is blocked by %s: it could not be activated", id, joinIDs(t, bl)))
	}
	return nil
}

// ambush checks a move made by the special skill Embuscade: the disk is
// placed, not flipped, so flips and the disks in the way do not count.
func (m *Move) ambush(t *engine.Table, fx Effects, i int) {
	m.Ambush = true
	d := t.Disk(i)
	if !HasSkill(d, SkillAmbush) {
		m.Problems = append(m.Problems, fmt.Sprintf("%s has no special skill %q", d.ID, SkillAmbush))
	}
	if by := fx.Of(i).NoSkills; by != "" {
		m.Problems = append(m.Problems, "it cannot use its special skills: "+by)
	}
}

// flips checks that a flip path within the movement reaches the end.
func (m *Move) flips(p pathFinder, start, end engine.Vec) {
	m.MinFlips = p.minFlips(start, end, min(max(m.Movement, 0), maxFlips))
	switch {
	case m.MinFlips < 0 && m.Movement < maxFlips:
		m.Problems = append(m.Problems, fmt.Sprintf("no path of %d flips or fewer reaches the new place without stopping on a disk on the way", m.Movement))
	case m.MinFlips < 0:
		m.Problems = append(m.Problems, fmt.Sprintf("no path of %d flips or fewer reaches the new place", maxFlips))
	case m.MinFlips > m.Movement:
		m.Problems = append(m.Problems, fmt.Sprintf("it needs %d flips, its movement is %d", m.MinFlips, m.Movement))
	}
}

// movedDisk returns the id of the one disk that moved more than tol. Spell
// disks other than magic walls are reminders that may travel with the disk
// they lie on: they are not counted.
func movedDisk(before, after models.Layout, tol models.Centimetres) (string, error) {
	if len(before.Disks) != len(after.Disks) {
		return "", fmt.Errorf("before has %d disks, after has %d: a move changes no disk's presence", len(before.Disks), len(after.Disks))
	}
	var moved []string
	for _, d := range before.Disks {
		a, ok := after.Disk(d.ID)
		if !ok {
			return "", fmt.Errorf("disk %q is missing after the move", d.ID)
		}
		if math.Hypot(float64(a.X-d.X), float64(a.Y-d.Y)) > float64(tol) && (d.Kind != models.KindSpell || isWall(d)) {
			moved = append(moved, d.ID)
		}
	}
	switch len(moved) {
	case 0:
		return "", fmt.Errorf("no disk moved more than %v cm", tol)
	case 1:
		return moved[0], nil
	}
	return "", fmt.Errorf("disks %v moved: one activation moves one disk", moved)
}

// pathFinder searches flip paths for disk i on table t.
type pathFinder struct {
	t      *engine.Table
	i      int
	flying bool
	r, tol float64
	fx     Effects
}

// free reports whether the disk may land at c on the way (not the end).
func (p pathFinder) free(c engine.Vec) bool {
	for j := range p.t.Len() {
		if j == p.i {
			continue
		}
		if p.t.Disk(j).IsTerrain() || engine.Edge(engine.Circle{C: c, R: p.r}, p.t.Circle(j)) >= 0 {
			continue
		}
		if p.stops(j) {
			return false
		}
	}
	return true
}

// stops reports whether the moving disk may not land over disk j, another
// disk than itself and no terrain, on the way. A flyer passes over
// non-flying disks and magic walls ("Les Disks volants peuvent passer par
// dessus"), not over an enemy flyer nor a disk under Répulsion.
func (p pathFinder) stops(j int) bool {
	o := p.t.Disk(j)
	return !p.flying || (IsFlying(o) && models.Enemies(p.t.Disk(p.i), o)) || p.fx.Of(j).Repulsion != ""
}

func (p pathFinder) landsOnWall(c engine.Vec) int {
	for j := range p.t.Len() {
		if j != p.i && isWall(p.t.Disk(j)) && engine.Overlap(engine.Circle{C: c, R: p.r}, p.t.Circle(j)) {
			return j
		}
	}
	return -1
}

func isWall(d models.Disk) bool {
	sp, ok := SpellName(d)
	return ok && sp.Name == "Mur magique"
}

// minFlips returns the least number of flips, at most limit (and at least
// far enough to tell), from start to end; -1 when none is found. The
// landings on the way are searched on the directions of directions,
// keeping one landing per 0.5 cm cell; the last two flips are solved
// exactly (twoFlips), so the last flip ends within tol of end whatever
// tol.
func (p pathFinder) minFlips(start, end engine.Vec, limit int) int {
	step := 2 * p.r
	if end.Sub(start).Len() <= p.tol {
		return 0
	}
	bound := max(limit, int(math.Ceil(end.Sub(start).Len()/step))+1)
	bound = min(bound, maxFlips)
	frontier := []engine.Vec{start}
	seen := map[[2]int]bool{cell(start): true}
	for k := 1; k <= bound; k++ {
		for _, c := range frontier {
			if math.Abs(end.Sub(c).Len()-step) <= p.tol {
				return k
			}
		}
		if k < bound {
			for _, c := range frontier {
				if p.twoFlips(c, end, step) {
					return k + 1
				}
			}
		}
		var next []engine.Vec
		remaining := float64(bound-k) * step
		for _, c := range frontier {
			for _, a := range p.directions(c, end, step) {
				n := c.Polar(step, a)
				key := cell(n)
				if seen[key] || end.Sub(n).Len() > remaining+p.tol || !p.free(n) {
					continue
				}
				seen[key] = true
				next = append(next, n)
			}
		}
		if len(next) == 0 {
			return -1
		}
		frontier = next
	}
	return -1
}

// twoFlips reports whether two flips of length step bring the disk from c
// to end: the landing between them, at step from both, is one of the two
// intersections of the circles of radius step around c and end (any point
// of the circle when end is c), and must be free.
func (p pathFinder) twoFlips(c, end engine.Vec, step float64) bool {
	v := end.Sub(c)
	d := v.Len()
	switch {
	case d > 2*step+p.tol:
		return false
	case d < 1e-9:
		for _, a := range p.directions(c, end, step) {
			if p.free(c.Polar(step, a)) {
				return true
			}
		}
		return false
	}
	u := v.Scale(1 / d)
	h := math.Sqrt(max(step*step-d*d/4, 0))
	m := c.Add(u.Scale(min(d/2, step)))
	n := engine.Vec{X: -u.Y, Y: u.X}
	return p.free(m.Add(n.Scale(h))) || p.free(m.Sub(n.Scale(h)))
}

func cell(v engine.Vec) [2]int {
	return [2]int{int(math.Floor(v.X / 0.5)), int(math.Floor(v.Y / 0.5))}
}

// NonActivatedWithin returns the creatures without an activation marker
// within r of disk i, edge to edge: whom the Elf Bard's special skill
// ("A pour donner à un Disk NA dans un rayon de 30cm +3M ce tour") may
// choose.
func NonActivatedWithin(t *engine.Table, i int, r models.Centimetres) []string {
	var out []string
	for _, j := range t.WithinOfDisk(i, r) {
		if d := t.Disk(j); IsCreature(d) && !d.Activated {
			out = append(out, d.ID)
		}
	}
	slices.Sort(out)
	return out
}
