package diskwars

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"tableref/engine"
	"tableref/models"
)

// Scenario names, as given to "tableref scenario check --scenario".
const (
	PremierContact   = "premier-contact"
	CollineDuDestin  = "colline-du-destin"
	ACouteauxTires   = "a-couteaux-tires"
	DefaultThreshold = 25 // army points to destroy (Colline, Couteaux)
	ControlBonus     = 10 // Couteaux: points for absolute control
	BaseAttack       = 8  // Premier contact: combined attack on the enemy base
)

// ScenarioNames lists the three scenarios of the rulebook.
func ScenarioNames() []string { return []string{PremierContact, CollineDuDestin, ACouteauxTires} }

// Controller returns the player (side, or owner when no side is given)
// in absolute control of terrain disk i: one of his creatures touches it
// and no enemy creature does ("un de ses Disks le touche et aucun Disk
// ennemi ne doit être parvenu au contact"). "" when nobody controls it.
func Controller(t *engine.Table, i int) string {
	var who []models.Disk
	c := creatureContacts(t, nil)
	for j := range t.Len() {
		if d := t.Disk(j); IsCreature(d) && d.Team() != "" && c.OnTop(j, i) {
			who = append(who, d)
		}
	}
	if len(who) == 0 {
		return ""
	}
	// Every pair: with sides given on some disks only, two friends of the
	// first may still be enemies of each other (models.Enemies).
	for k, a := range who {
		for _, b := range who[k+1:] {
			if models.Enemies(a, b) {
				return ""
			}
		}
	}
	return who[0].Team()
}

// CentralTerrain returns the terrain in the middle of the table: the one
// named by the layout option "central" (a disk id), else the only terrain
// that is not a homeland, else the non-homeland terrain nearest the centre
// of the table (the centre of all disks when the table size is unknown).
func CentralTerrain(t *engine.Table) (int, error) {
	l := t.Layout()
	var id string
	if ok, err := l.Option("central", &id); err != nil {
		return -1, err
	} else if ok {
		i, found := t.Index(id)
		if !found || !t.Disk(i).IsTerrain() {
			return -1, fmt.Errorf("central %q is not a terrain disk of the layout", id)
		}
		return i, nil
	}
	var cands []int
	for i, d := range t.Disks() {
		if d.IsTerrain() && d.Terrain != "homeland" {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return -1, fmt.Errorf("no central terrain: the layout has no terrain disk other than homelands (name one with the top-level field \"central\")")
	}
	c := tableCentre(t)
	slices.SortStableFunc(cands, func(a, b int) int {
		return cmpF(t.Circle(a).C.Sub(c).Len(), t.Circle(b).C.Sub(c).Len())
	})
	return cands[0], nil
}

func tableCentre(t *engine.Table) engine.Vec {
	if s := t.Layout().Table; s != nil {
		return engine.Vec{X: float64(s.Width) / 2, Y: float64(s.Height) / 2}
	}
	var c engine.Vec
	for i := range t.Len() {
		c = c.Add(t.Circle(i).C)
	}
	if t.Len() > 0 {
		c = c.Scale(1 / float64(t.Len()))
	}
	return c
}

// Verdict is the state of a scenario's victory conditions.
type Verdict struct {
	Scenario string `json:"scenario"`
	// Winner is the player who has won, "" while nobody has.
	Winner  string         `json:"winner,omitempty"`
	Central string         `json:"central,omitempty"`
	Control string         `json:"control,omitempty"`
	Scores  map[string]int `json:"scores,omitempty"`
	Reasons []string       `json:"reasons"`
}

// Tally is the army points each player has destroyed so far.
type Tally map[string]int

// CheckScenario applies a scenario's victory check. turns are the tables
// at the end of consecutive turns, oldest first, the last being now (only
// "Premier contact" looks at more than the last). threshold is the points
// to destroy (0 means DefaultThreshold).
func CheckScenario(name string, turns []*engine.Table, tally Tally, threshold int) (Verdict, error) {
	if !KnownScenario(name) {
		return Verdict{}, fmt.Errorf("unknown scenario %q: choose one of %s", name, strings.Join(ScenarioNames(), ", "))
	}
	if len(turns) == 0 {
		return Verdict{}, fmt.Errorf("no table to check")
	}
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	now := turns[len(turns)-1]
	ci, err := CentralTerrain(now)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Scenario: name, Central: now.ID(ci), Control: Controller(now, ci), Reasons: []string{}}
	switch normalise(name) {
	case normalise(PremierContact), "premier contact":
		premierContact(&v, turns)
	case normalise(CollineDuDestin), "la colline du destin":
		colline(&v, tally, threshold)
	case normalise(ACouteauxTires), "a couteaux tires", "couteaux tires":
		couteaux(&v, now, tally, threshold)
	default:
		return Verdict{}, fmt.Errorf("unknown scenario %q: choose one of %s", name, strings.Join(ScenarioNames(), ", "))
	}
	return v, nil
}

// premierContact: absolute control of the central terrain at the end of
// two consecutive turns, or creatures with a combined attack of 8 or more
// (Berserk included) touching the enemy homeland.
func premierContact(v *Verdict, turns []*engine.Table) {
	now := turns[len(turns)-1]
	if len(turns) >= 2 && v.Control != "" {
		prev := turns[len(turns)-2]
		if pi, err := CentralTerrain(prev); err == nil && Controller(prev, pi) == v.Control {
			v.Winner = v.Control
			v.Reasons = append(v.Reasons, fmt.Sprintf("%s has held absolute control of %s for two consecutive turns", v.Control, v.Central))
			return
		}
	}
	if v.Control != "" {
		v.Reasons = append(v.Reasons, fmt.Sprintf("%s controls %s this turn; one more turn wins", v.Control, v.Central))
	}
	c := creatureContacts(now, nil)
	for i, base := range now.Disks() {
		if !base.IsTerrain() || base.Terrain != "homeland" || base.Team() == "" {
			continue
		}
		attack := map[string]int{}
		for j, d := range now.Disks() {
			if IsCreature(d) && models.Enemies(d, base) && c.OnTop(j, i) {
				attack[d.Team()] += attackThisTurn(d)
			}
		}
		for _, p := range sortedKeys(attack) {
			if attack[p] >= BaseAttack {
				v.Winner = p
				v.Reasons = append(v.Reasons, fmt.Sprintf("%s has a combined attack of %d on the base %s (%d or more wins)", p, attack[p], base.ID, BaseAttack))
				return
			}
		}
	}
}

// attackThisTurn is a creature's attack with its Berserk bonus ("ajouter
// 2 points à ses valeurs de AT, D, E"); stats.attack alone when its other
// values are missing.
func attackThisTurn(d models.Disk) int {
	if c, err := CreatureOf(d); err == nil {
		return c.Attack
	}
	a, _ := d.Stat("attack")
	return a
}

// colline: at the end of a turn, absolute control of the central terrain
// and threshold points destroyed.
func colline(v *Verdict, tally Tally, threshold int) {
	v.Scores = map[string]int(tally)
	if v.Control == "" {
		v.Reasons = append(v.Reasons, "nobody has absolute control of "+v.Central)
		return
	}
	if tally[v.Control] >= threshold {
		v.Winner = v.Control
		v.Reasons = append(v.Reasons, fmt.Sprintf("%s controls %s and has destroyed %d points (%d needed)", v.Control, v.Central, tally[v.Control], threshold))
		return
	}
	v.Reasons = append(v.Reasons, fmt.Sprintf("%s controls %s but has destroyed only %d of the %d points needed", v.Control, v.Central, tally[v.Control], threshold))
}

// couteaux: at the end of a turn, threshold points destroyed more than the
// nearest opponent; absolute control of the central terrain is worth
// ControlBonus points at the count.
func couteaux(v *Verdict, now *engine.Table, tally Tally, threshold int) {
	scores := map[string]int{}
	for _, p := range now.Layout().Players {
		scores[p] = 0
	}
	for _, d := range now.Disks() {
		if IsCreature(d) && d.Team() != "" {
			scores[d.Team()] += 0
		}
	}
	for p, n := range tally {
		scores[p] += n
	}
	if v.Control != "" {
		scores[v.Control] += ControlBonus
	}
	v.Scores = scores
	names := sortedKeys(scores)
	slices.SortStableFunc(names, func(a, b string) int { return scores[b] - scores[a] })
	if len(names) < 2 {
		v.Reasons = append(v.Reasons, "fewer than two players to compare")
		return
	}
	lead := scores[names[0]] - scores[names[1]]
	if lead >= threshold {
		v.Winner = names[0]
		v.Reasons = append(v.Reasons, fmt.Sprintf("%s leads %s by %d points (%d to %d; %d needed)", names[0], names[1], lead, scores[names[0]], scores[names[1]], threshold))
		return
	}
	v.Reasons = append(v.Reasons, fmt.Sprintf("the best lead is %d points (%s over %s), %d needed", lead, names[0], names[1], threshold))
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// PointsOf returns the army points of disk d (stats.points), 0 when not given.
func PointsOf(d models.Disk) int {
	p, _ := d.Stat("points")
	return max(p, 0)
}

// DestroyedPoints adds to a tally the points (stats.points) of the
// casualties of a turn, credited to the enemy side whose disks struck them
// in melee. When disks of several sides struck one casualty, the side of
// the striker with the greatest attack, then defence, then toughness wins
// the points; if all are equal the points are lost ("Note" of "Combat
// multiple"). Casualties of missiles alone credit nobody, since a token
// does not say who dropped it, and a captured disk credits nobody ("Si un
// Disk capturé est tué, personne ne gagne de points de victoire"). It
// returns a new tally.
func DestroyedPoints(t *engine.Table, r Result, tally Tally) Tally {
	out := Tally{}
	for k, v := range tally {
		out[k] = v
	}
	values := map[string]Creature{}
	for _, c := range r.Creatures {
		values[c.ID] = c
	}
	for _, id := range r.Casualties {
		i, _ := t.Index(id)
		if IsCaptured(t.Disk(i)) {
			continue
		}
		best := map[string][3]int{}
		for _, ev := range r.Log {
			if ev.To != id || (ev.Kind != "attack" && ev.Kind != "defense") {
				continue
			}
			j, ok := t.Index(ev.From)
			if !ok || !models.Enemies(t.Disk(i), t.Disk(j)) {
				continue
			}
			c := values[ev.From]
			v := [3]int{c.Attack, c.Defense, c.Toughness}
			if b, ok := best[t.Disk(j).Team()]; !ok || cmpTriple(v, b) > 0 {
				best[t.Disk(j).Team()] = v
			}
		}
		win, tie := "", false
		teams := make([]string, 0, len(best))
		for p := range best {
			teams = append(teams, p)
		}
		slices.Sort(teams)
		for _, p := range teams {
			v := best[p]
			switch {
			case win == "" || cmpTriple(v, best[win]) > 0:
				win, tie = p, false
			case cmpTriple(v, best[win]) == 0:
				tie = true
			}
		}
		if win != "" && !tie {
			out[win] += PointsOf(t.Disk(i))
		}
	}
	return out
}

func cmpTriple(a, b [3]int) int {
	for k := range a {
		if a[k] != b[k] {
			return a[k] - b[k]
		}
	}
	return 0
}

// IsCaptured reports whether a disk was captured ("Capture"): its field
// "captured" is true. A captured disk is played by its capturer (give it
// the capturer's owner) and its destruction scores nothing.
func IsCaptured(d models.Disk) bool {
	var v bool
	raw, ok := d.Extra["captured"]
	return ok && json.Unmarshal(raw, &v) == nil && v
}

// KnownScenario reports whether name (any accents and spacing) names one
// of the rulebook's three scenarios.
func KnownScenario(name string) bool {
	switch normalise(name) {
	case normalise(PremierContact), "premier contact",
		normalise(CollineDuDestin), "la colline du destin",
		normalise(ACouteauxTires), "a couteaux tires", "couteaux tires":
		return true
	}
	return false
}
