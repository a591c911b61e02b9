package diskwars

import (
	"fmt"
	"slices"
	"strings"

	"tableref/engine"
	"tableref/models"
)

// The Combat phase
//
// Two enemy creatures in contact fight: the upper disk attacks with its
// attack, the lower defends with its defence. How tableref resolves a pile
// of disks (the interpretation that makes the rulebook's five "Combat
// multiple" examples true; see docs/diskwars.md):
//
//  1. The front of an attacker X is the set of living enemy creatures X
//     lies on that no other living enemy X lies on covers: the layer of
//     enemies directly under X ("un Disk ne peut mener qu'une attaque").
//     A disk deeper in the pile, under one of X's defenders, is not in X's
//     combat (example 2: B, under A, does not fight C even though C lies
//     on it too). A friend of X lying on an enemy does not shield it: X
//     lies on that enemy too and must fight it ("si deux Disks ennemis se
//     chevauchent, ils doivent se combattre"). A Téméraire (reckless)
//     attacker's front is every enemy it lies on ("peuvent attaquer tous
//     les Disks qu'ils chevauchent").
//  2. An attacker is pending while it is alive, has not attacked yet, and
//     its front is not empty. It is ready when no pending attacker has it
//     in its front: combats are resolved from the top down, so a disk
//     first defends against what attacks it, then attacks (examples 1 and
//     3).
//  3. The pending attackers and their fronts form combats: the connected
//     groups of "X has Y in its front". A combat is fought once all its
//     attackers are ready (an attacker still under attack joins the
//     others on their common defender after its own defence: "si
//     plusieurs Disks attaquent un même adversaire ils doivent combiner
//     leur puissance totale"); should none be, the ready attackers fight
//     on their own, so that the phase always ends. All attackers in a
//     combat strike at once (combined attack, example 4); every disk of a
//     front answers the attackers that lie on it (combined defence,
//     example 5), even when it was not the one attacked. The combats ready
//     at one moment share no disk and are fought as of that moment: each
//     attacker strikes the front it had then (a disk another of them
//     uncovers stays unstruck, as B under C in example 2), so that the
//     outcome never depends on the order of the disks in the layout.
//  4. An attacker strikes one disk of its front: its "target" when that is
//     in its front, otherwise the disk with the least toughness left (ties:
//     the smaller id). A defender answers one attacker: its "target" when
//     that attacker lies on it in this combat, otherwise the attacker with
//     the least toughness left, ties the smaller id (example 4: B answers
//     C, whose toughness is lower than A's). Téméraire (reckless) strikes or answers
//     every one of them with its full value.
//  5. Rapidité (swift): swift attackers strike first; a disk they destroy
//     does not answer. Then the other attackers and every surviving
//     defender strike at once. Damage adds up, wounds are taken, and the
//     destroyed disks leave the table at once.
//  6. A disk attacks once (it is marked as having attacked even if it died)
//     and defends as often as it is attacked. Then the next ready combats,
//     until no attacker is pending.

// Combat is one combat as resolved, for the report.
type Combat struct {
	ID        string   `json:"id"`
	Attackers []string `json:"attackers"`
	Defenders []string `json:"defenders"`
	// Strikes says who dealt damage to whom in this combat.
	Strikes    []Strike `json:"strikes"`
	Casualties []string `json:"casualties"`
}

// Strike is the damage one disk deals to another in a combat.
type Strike struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Amount int    `json:"amount"`
	// As is "attack" or "defense".
	As string `json:"as"`
	// Step is "swift" for a Rapidité strike, "blows" otherwise.
	Step string `json:"step"`
	// Chosen says how the struck disk was chosen: "target", "default",
	// "reckless" or "only".
	Chosen string `json:"chosen"`
}

// enemies reports whether disks i and j are enemy creatures.
func (s *turnState) enemies(i, j int) bool {
	return IsCreature(s.t.Disk(i)) && IsCreature(s.t.Disk(j)) && models.Enemies(s.t.Disk(i), s.t.Disk(j))
}

// front returns the living enemy creatures disk x lies on that no other
// living enemy x lies on covers (every one for a reckless x).
func (s *turnState) front(x int) []int {
	var out []int
	pins := s.pins(x)
	reckless := s.creatures[x].Reckless
	for _, y := range pins {
		if !s.alive(y) || !s.enemies(x, y) {
			continue
		}
		covered := false
		for _, w := range pins {
			if !reckless && w != y && s.alive(w) && s.enemies(x, w) && s.onTop(w, y) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, y)
		}
	}
	return out
}

func (s *turnState) pending(x int) bool {
	return IsCreature(s.t.Disk(x)) && s.alive(x) && !s.attacked[x] && len(s.front(x)) > 0
}

func (s *turnState) ready(x int) bool {
	if !s.pending(x) {
		return false
	}
	for _, w := range s.pinnedBy(x) {
		if s.pending(w) && slices.Contains(s.front(w), x) {
			return false
		}
	}
	return true
}

// loadFighters reads the values of every creature in contact with an
// enemy creature (s.contacts does), so that missing statistics are
// reported before any resolution.
func (s *turnState) loadFighters() error {
	s.contacts()
	return s.loadErr
}

// resolveMelee runs the Combat phase and returns the combats in the order
// they were resolved.
func (s *turnState) resolveMelee() ([]Combat, error) {
	if err := s.loadFighters(); err != nil {
		return nil, err
	}
	var combats []Combat
	for {
		groups := s.readyGroups()
		if s.loadErr != nil {
			return nil, s.loadErr
		}
		if len(groups) == 0 {
			return combats, nil
		}
		for _, g := range groups {
			c := s.fight(fmt.Sprintf("C%d", len(combats)+1), g)
			combats = append(combats, c)
		}
	}
}

// group is one combat about to be resolved: its attackers and defenders,
// in id order, and each attacker's front as it was when the combat became
// ready.
type group struct {
	attackers, defenders []int
	fronts               map[int][]int
}

// readyGroups returns the combats ready to be resolved: those of the
// pending attackers whose attackers are all ready or, when there is none,
// those of the ready attackers alone. They are fought one after the other
// but as of the moment they became ready (fronts fixed then): they share
// no disk, and a disk one of them destroys does not change whom an
// attacker of another strikes, so that the outcome never depends on the
// order of the disks in the layout. Ordered highest first, then by the
// id of their first attacker.
func (s *turnState) readyGroups() []group {
	var pending []int
	for x := range s.t.Len() {
		if s.pending(x) {
			pending = append(pending, x)
		}
	}
	var out []group
	for _, g := range s.groupsOf(pending) {
		if !slices.ContainsFunc(g.attackers, func(x int) bool { return !s.ready(x) }) {
			out = append(out, g)
		}
	}
	if len(out) > 0 {
		return out
	}
	return s.groupsOf(slices.DeleteFunc(pending, func(x int) bool { return !s.ready(x) }))
}

// groupsOf returns the combats of the given attackers, highest first: the
// connected groups of attackers sharing a defender.
func (s *turnState) groupsOf(ready []int) []group {
	if len(ready) == 0 {
		return nil
	}
	fronts := map[int][]int{}
	for _, x := range ready {
		fronts[x] = s.front(x)
	}
	// Union the ready attackers that share a defender.
	parent := map[int]int{}
	var find func(int) int
	find = func(a int) int {
		if p, ok := parent[a]; ok && p != a {
			r := find(p)
			parent[a] = r
			return r
		}
		parent[a] = a
		return a
	}
	owner := map[int]int{} // defender -> an attacker
	for _, x := range ready {
		find(x)
		for _, y := range fronts[x] {
			if a, ok := owner[y]; ok {
				parent[find(x)] = find(a)
			} else {
				owner[y] = x
			}
		}
	}
	byRoot := map[int]*group{}
	var roots []int
	for _, x := range ready {
		r := find(x)
		g, ok := byRoot[r]
		if !ok {
			g = &group{fronts: map[int][]int{}}
			byRoot[r] = g
			roots = append(roots, r)
		}
		g.attackers = append(g.attackers, x)
		g.fronts[x] = fronts[x]
		for _, y := range fronts[x] {
			if !slices.Contains(g.defenders, y) {
				g.defenders = append(g.defenders, y)
			}
		}
	}
	out := make([]group, 0, len(roots))
	for _, r := range roots {
		g := byRoot[r]
		s.byID(g.attackers)
		s.byID(g.defenders)
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b group) int {
		if c := s.topZ(b) - s.topZ(a); c != 0 {
			return c
		}
		return models.CompareIDs(s.id(a.attackers[0]), s.id(b.attackers[0]))
	})
	return out
}

// byID sorts disk indices by their ids: what is listed, struck first or
// chosen on a tie never depends on the order of the disks in the layout.
func (s *turnState) byID(xs []int) {
	slices.SortFunc(xs, func(a, b int) int { return models.CompareIDs(s.id(a), s.id(b)) })
}

func (s *turnState) topZ(g group) int {
	z := s.t.Disk(g.attackers[0]).Z
	for _, a := range g.attackers[1:] {
		z = max(z, s.t.Disk(a).Z)
	}
	return z
}

// choose picks the disk among options that x strikes: x's target when it
// is one of them, otherwise the one with the least toughness left (ties:
// the smaller id).
func (s *turnState) choose(x int, options []int) (int, string) {
	if len(options) == 1 {
		return options[0], "only"
	}
	if tid := s.t.Disk(x).Target; tid != "" {
		if ti, ok := s.t.Index(tid); ok && slices.Contains(options, ti) {
			return ti, "target"
		}
	}
	best := options[0]
	for _, o := range options[1:] {
		if r, rb := s.remaining(o), s.remaining(best); r < rb || (r == rb && models.CompareIDs(s.id(o), s.id(best)) < 0) {
			best = o
		}
	}
	return best, "default"
}

// fight resolves one combat.
func (s *turnState) fight(id string, g group) Combat {
	c := Combat{ID: id, Attackers: s.t.IDs(g.attackers), Defenders: s.t.IDs(g.defenders), Strikes: []Strike{}, Casualties: []string{}}
	s.log = append(s.log, engine.Event{Phase: "combat", Engagement: id, Kind: "combat",
		Text: fmt.Sprintf("combat %s: %s %s %s", id, strings.Join(c.Attackers, " and "), verbFor(len(c.Attackers)), strings.Join(c.Defenders, " and "))})
	fronts := g.fronts
	for _, x := range g.attackers {
		s.attacked[x] = true
	}
	deadBefore := len(s.order)
	var swift, rest []int
	for _, x := range g.attackers {
		if s.creatures[x].Swift {
			swift = append(swift, x)
		} else {
			rest = append(rest, x)
		}
	}
	if len(swift) > 0 {
		s.strike(&c, "swift", s.attacks(swift, fronts))
	}
	var blows []Strike
	blows = append(blows, s.attacks(rest, fronts)...)
	blows = append(blows, s.defences(g, fronts)...)
	s.strike(&c, "blows", blows)
	for _, i := range s.order[deadBefore:] {
		c.Casualties = append(c.Casualties, s.id(i))
	}
	return c
}

// attacks returns the strikes of the living attackers xs.
func (s *turnState) attacks(xs []int, fronts map[int][]int) []Strike {
	var out []Strike
	for _, x := range xs {
		if !s.alive(x) {
			continue
		}
		opts := s.living(fronts[x])
		if len(opts) == 0 {
			continue
		}
		out = s.strikesOf(out, x, opts, s.creatures[x].Attack, "attack")
	}
	return out
}

// strikesOf adds the strikes of disk x against the enemies it may strike:
// all of them when it is reckless (Téméraire), else the one it chooses.
func (s *turnState) strikesOf(out []Strike, x int, opts []int, amount int, as string) []Strike {
	if s.creatures[x].Reckless {
		opts = slices.Clone(opts)
		s.byID(opts)
		for _, y := range opts {
			out = append(out, Strike{From: s.id(x), To: s.id(y), Amount: amount, As: as, Chosen: "reckless"})
		}
		return out
	}
	y, how := s.choose(x, opts)
	s.checkTarget(x, how)
	return append(out, Strike{From: s.id(x), To: s.id(y), Amount: amount, As: as, Chosen: how})
}

// defences returns the strikes of the living defenders of g: each answers
// the living attackers lying on it.
func (s *turnState) defences(g group, fronts map[int][]int) []Strike {
	var out []Strike
	for _, y := range g.defenders {
		if !s.alive(y) {
			continue
		}
		var on []int
		for _, x := range g.attackers {
			if s.alive(x) && slices.Contains(fronts[x], y) {
				on = append(on, x)
			}
		}
		if len(on) == 0 {
			continue
		}
		out = s.strikesOf(out, y, on, s.creatures[y].Defense, "defense")
	}
	return out
}

// checkTarget warns when a disk's target could not be followed.
func (s *turnState) checkTarget(x int, how string) {
	if tid := s.t.Disk(x).Target; tid != "" && how == "default" {
		s.warnf("disk %q: target %q is not among the disks it can strike in its combat; the default choice was applied", s.id(x), tid)
	}
}

func (s *turnState) living(xs []int) []int {
	var out []int
	for _, x := range xs {
		if s.alive(x) {
			out = append(out, x)
		}
	}
	return out
}

// strike applies simultaneous strikes: damage adds up per struck disk,
// then wounds and casualties.
func (s *turnState) strike(c *Combat, step string, strikes []Strike) {
	byDisk := map[int][]blow{}
	var order []int
	for _, st := range strikes {
		st.Step = step
		c.Strikes = append(c.Strikes, st)
		to, _ := s.t.Index(st.To)
		from, _ := s.t.Index(st.From)
		verb := "attacks"
		if st.As == "defense" {
			verb = "answers"
		}
		how := ""
		switch st.Chosen {
		case "target":
			how = ", its chosen target"
		case "default":
			how = ", the default choice (least toughness left)"
		case "reckless":
			how = ", reckless: every one"
		}
		text := fmt.Sprintf("%s %s %s: %d damage (%s %d%s)", st.From, verb, st.To, st.Amount, st.As, st.Amount, how)
		if step == "swift" {
			text = "swift: " + text
		}
		if _, ok := byDisk[to]; !ok {
			order = append(order, to)
		}
		b := blow{from: st.From, engagement: c.ID, step: step, phase: "combat", kind: st.As,
			amount: st.Amount, momentary: s.creatures[from].Momentary, text: text}
		s.logBlow(to, b)
		byDisk[to] = append(byDisk[to], b)
	}
	for _, to := range order {
		s.apply(to, byDisk[to], true)
	}
}

func verbFor(n int) string {
	if n == 1 {
		return "lies on"
	}
	return "lie on"
}
