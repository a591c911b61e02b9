package diskwars

import (
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Wounds and damage
//
// Damage points pile up on a disk during the turn (missiles, spells,
// combats: "les dommages se cumulent"). Each time the pile reaches the
// disk's toughness the disk takes a wound and the toughness worth of damage
// is spent on it: damage equal to twice the toughness is two wounds, three
// times three wounds, and what is left stays on the disk until the end of
// the turn. A disk is destroyed when its wounds taken reach its wounds.
// At the end of the turn damage is cleared and wounds stay (EndTurn).

// Wound returns the wounds a disk takes when amount damage is added to the
// damage it already holds, and the damage left on it afterwards. toughness
// must be at least 1.
func Wound(held, amount, toughness int) (wounds, left int) {
	total := held + amount
	return total / toughness, total % toughness
}

// WoundMomentary is Wound for a blow that mixes ordinary damage with
// momentary damage ("Dommages momentanés"): momentary damage adds to what
// the disk already holds, but when it does not wound the disk it vanishes
// at once, and it never stays on the disk for later blows. When a wound is
// taken, the damage left is the remainder, but never more than the
// ordinary damage alone would have left.
func WoundMomentary(held, ordinary, momentary, toughness int) (wounds, left int) {
	wounds, left = Wound(held, ordinary+momentary, toughness)
	if wounds == 0 {
		return 0, held + ordinary
	}
	return wounds, min(left, held+ordinary)
}

// turnState is the mutable state of one resolution. Only the functions of
// this package change it, while they build a Result.
type turnState struct {
	t         *engine.Table
	creatures map[int]Creature
	damage    map[int]int // damage held now
	wounds    map[int]int // wounds taken (markers)
	dealt     map[int]int // damage points dealt this turn
	dead      map[int]bool
	attacked  map[int]bool
	order     []int // casualties in order
	phase     map[int]string
	log       []engine.Event
	warnings  []string
	fx        Effects // lasting spell effects (spell disks on the table)
	// The rules' contact relation (contacts.go) among the disks left on
	// the table, computed again when one more is destroyed (see pins).
	live     contacts
	liveDead int // len(dead) when it was computed, -1 before
	loadErr  error
}

func newTurnState(t *engine.Table) *turnState {
	return &turnState{t: t, creatures: map[int]Creature{}, damage: map[int]int{}, wounds: map[int]int{},
		dealt: map[int]int{}, dead: map[int]bool{}, attacked: map[int]bool{}, phase: map[int]string{}, liveDead: -1}
}

// creature returns disk i's values, reading them once; an error names the
// missing statistic.
func (s *turnState) creature(i int) (Creature, error) {
	if c, ok := s.creatures[i]; ok {
		return c, nil
	}
	d := s.t.Disk(i)
	c, err := CreatureOf(d)
	if err != nil {
		return Creature{}, err
	}
	c = s.fx.Of(i).ApplyTo(c)
	s.creatures[i] = c
	s.wounds[i] = d.WoundsTaken
	if spent(d) {
		// Read as already off the table (spentWarnings); never a casualty
		// of this turn. The rules' contacts and hits leave it out, so this
		// is only a guard.
		s.dead[i] = true
		return c, nil
	}
	if d.Damage > 0 {
		s.hit(i, blow{amount: d.Damage, phase: "start", kind: "damage", text: fmt.Sprintf("%s holds %d damage from earlier in the turn", d.ID, d.Damage)}, false)
	}
	return c, nil
}

func (s *turnState) alive(i int) bool { return !s.dead[i] }

// pins returns the disks disk i lies on, in contact, among those left on
// the table; pinnedBy those lying on it. The relation is the rules' one
// (contacts.go: spell disks do not keep two creatures apart), and a
// destroyed disk leaves at once ("les Disks éliminés sont immédiatement
// retirés") and no longer keeps the disks above and below it apart: the
// contact rule is applied again without the destroyed disks each time one
// more is destroyed.
func (s *turnState) pins(i int) []int { return s.contacts().Pins(i) }

func (s *turnState) pinnedBy(i int) []int { return s.contacts().PinnedBy(i) }

// onTop reports whether disk top lies on disk bottom, in contact, among
// the disks left on the table.
func (s *turnState) onTop(top, bottom int) bool { return s.contacts().OnTop(top, bottom) }

// contacts returns the rules' contact relation without the destroyed
// disks, computed again when a disk was destroyed since it was last
// computed; it reads the values of the enemy creatures newly in contact
// (an error is kept in loadErr for the Combat phase to return).
func (s *turnState) contacts() contacts {
	if s.liveDead == len(s.dead) {
		return s.live
	}
	s.live = creatureContacts(s.t, func(i int) bool { return s.dead[i] })
	s.liveDead = len(s.dead)
	for _, c := range s.live.Contacts() {
		if !s.enemies(c.Top, c.Bottom) {
			continue
		}
		for _, i := range []int{c.Top, c.Bottom} {
			if _, err := s.creature(i); err != nil && s.loadErr == nil {
				s.loadErr = err
			}
		}
	}
	return s.live
}

func (s *turnState) id(i int) string { return s.t.ID(i) }

func (s *turnState) warnf(format string, args ...any) {
	s.warnings = append(s.warnings, fmt.Sprintf(format, args...))
}

// remaining returns the toughness disk i has left before its next wound.
func (s *turnState) remaining(i int) int {
	return s.creatures[i].Toughness - s.damage[i]
}

// blow is damage dealt to one disk.
type blow struct {
	from, engagement, step, phase, kind, text string
	amount                                    int
	momentary                                 bool
}

// hit applies one blow at once; dealt says whether it counts as damage
// dealt this turn.
func (s *turnState) hit(i int, b blow, dealt bool) {
	s.hitAll(i, []blow{b}, dealt)
}

// hitAll applies simultaneous blows to disk i: their damage is added, the
// wounds taken, and the disk marked destroyed when its wounds run out. It
// does not remove the disk: the caller decides when casualties leave.
func (s *turnState) hitAll(i int, blows []blow, dealt bool) {
	for _, b := range blows {
		s.logBlow(i, b)
	}
	s.apply(i, blows, dealt)
}

func (s *turnState) logBlow(i int, b blow) {
	s.log = append(s.log, engine.Event{Phase: b.phase, Engagement: b.engagement, Step: b.step,
		From: b.from, To: s.id(i), Amount: b.amount, Kind: b.kind, Text: b.text})
}

// apply adds the damage of simultaneous blows already logged. A disk under
// Protection takes none of it (damage held from earlier in the turn, phase
// "start", stays).
func (s *turnState) apply(i int, blows []blow, dealt bool) {
	if len(blows) == 0 {
		return
	}
	if fx := s.fx.Of(i); fx.NoDamage != "" && blows[0].phase != "start" {
		b := blows[0]
		s.log = append(s.log, engine.Event{Phase: b.phase, Engagement: b.engagement, Step: b.step, To: s.id(i), Kind: "protected",
			Text: fmt.Sprintf("%s takes no damage: %s", s.id(i), fx.NoDamage)})
		return
	}
	c := s.creatures[i]
	var ordinary, momentary int
	for _, b := range blows {
		if b.momentary {
			momentary += b.amount
		} else {
			ordinary += b.amount
		}
		if dealt {
			s.dealt[i] += b.amount
		}
	}
	held := s.damage[i]
	w, left := WoundMomentary(held, ordinary, momentary, c.Toughness)
	s.damage[i] = left
	if w == 0 {
		return
	}
	b := blows[0]
	before := s.wounds[i]
	s.wounds[i] = min(before+w, c.Wounds)
	s.log = append(s.log, engine.Event{Phase: b.phase, Engagement: b.engagement, Step: b.step, To: s.id(i), Amount: w, Kind: "wound",
		Text: fmt.Sprintf("%s takes %s (damage %d against toughness %d), %d of %d wounds", s.id(i), plural(w, "wound"), held+ordinary+momentary, c.Toughness, s.wounds[i], c.Wounds)})
	if s.wounds[i] >= c.Wounds && !s.dead[i] {
		s.dead[i] = true
		s.damage[i] = 0
		s.order = append(s.order, i)
		s.phase[i] = b.phase
		s.log = append(s.log, engine.Event{Phase: b.phase, Engagement: b.engagement, Step: b.step, To: s.id(i), Kind: "casualty",
			Text: fmt.Sprintf("%s is destroyed and removed from the table", s.id(i))})
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// EndTurn returns the layout of the next turn after the turn resolved in
// r ("Fin de tour"): casualties are removed, damage is cleared (a
// toughness-6 disk with 3 damage starts the next turn at full toughness),
// wounds stay, activation markers go, attacked_last_turn records which
// disks attacked in the Combat phase (for Berserk), and every token except
// wound markers is taken off the table. The first player passes to the
// next player clockwise when the seating is known. The spell disks left as
// reminders of effects that last "jusqu'à la fin du tour" are taken off;
// magic walls stay ("Ces murs restent en place tout le long de la
// partie"). A spent creature left on the table (all its wounds taken
// before this turn) goes too. l is not changed.
func EndTurn(l models.Layout, r Result) models.Layout {
	out := l.Clone()
	dead := map[string]bool{}
	for _, id := range r.Casualties {
		dead[id] = true
	}
	attacked := map[string]bool{}
	for _, id := range r.Attacked {
		attacked[id] = true
	}
	out.Disks = out.Disks[:0]
	for _, d := range l.Clone().Disks {
		if dead[d.ID] || endsWithTurn(d) || spent(d) {
			continue
		}
		if IsCreature(d) {
			d.Damage = 0
			d.Activated = false
			d.AttackedLastTurn = attacked[d.ID]
			if w, ok := r.Wounds[d.ID]; ok {
				d.WoundsTaken = w
			}
		}
		out.Disks = append(out.Disks, d)
	}
	out.Tokens = slices.DeleteFunc(out.Tokens, func(t models.Token) bool { return t.Kind != "wound" })
	if next, ok := NextFirstPlayer(l.Players, l.FirstPlayer); ok {
		out.FirstPlayer = next
	}
	if l.Turn > 0 {
		out.Turn = l.Turn + 1
	}
	return out
}

// endsWithTurn reports whether a disk is a spell disk whose effect ends
// with the turn: a known spell other than Mur magique.
func endsWithTurn(d models.Disk) bool {
	_, ok := SpellName(d)
	return ok && !isWall(d)
}
