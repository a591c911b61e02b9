package diskwars

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Army is an army list, as read from an ARMY.json file.
type Army struct {
	Name string `json:"name,omitempty"`
	// PointsLimit is the agreed army size in army points (PA); 0 for none.
	PointsLimit int         `json:"points_limit"`
	Creatures   []ArmyEntry `json:"creatures"`
	Spells      []ArmySpell `json:"spells,omitempty"`
}

// ArmyEntry is one creature disk (Count copies of it) in an army.
type ArmyEntry struct {
	Name    string `json:"name"`
	Faction string `json:"faction,omitempty"`
	// Rim is the rim colour: green (good), blue (neutral), black or red
	// (evil).
	Rim    string `json:"rim"`
	Points int    `json:"points"`
	// Count is how many copies; 0 means 1.
	Count  int  `json:"count,omitempty"`
	Unique bool `json:"unique,omitempty"`
	// Spellcaster is the caster level, 0 for none.
	Spellcaster int `json:"spellcaster,omitempty"`
}

// ArmySpell is a spell disk in the army's spell book.
type ArmySpell struct {
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
	// Points overrides the cost of the spell table when given.
	Points *int `json:"points,omitempty"`
}

// Alignment of a disk, from its rim colour ("Alignements").
type Alignment string

// Alignments.
const (
	Good    Alignment = "good"
	Neutral Alignment = "neutral"
	Evil    Alignment = "evil"
)

// AlignmentOf returns the alignment of a rim colour: green good, blue
// neutral, black or red evil.
func AlignmentOf(rim string) (Alignment, bool) {
	switch strings.ToLower(strings.TrimSpace(rim)) {
	case "green", "vert":
		return Good, true
	case "blue", "bleu":
		return Neutral, true
	case "black", "red", "noir", "rouge":
		return Evil, true
	}
	return "", false
}

// ErrArmyFile marks an army file that cannot be read.
var ErrArmyFile = errors.New("invalid army file")

// Bounds on the numbers of an army file, far above any army ("2589 à
// 2546 mais là, c'est une grosse bataille !"), so that no sum overflows.
const (
	MaxArmyPoints = 1_000_000 // points of one disk or spell, and points_limit
	MaxArmyCount  = 10_000    // copies of one disk or spell
)

// ParseArmy reads an army list from JSON. Unknown fields, negative points
// or counts, points above MaxArmyPoints, counts above MaxArmyCount and
// missing names are errors wrapping ErrArmyFile, naming the entry.
func ParseArmy(data []byte) (Army, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return Army{}, fmt.Errorf("%w: an army list is a JSON object", ErrArmyFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var a Army
	if err := dec.Decode(&a); err != nil {
		return Army{}, fmt.Errorf("%w: %v", ErrArmyFile, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Army{}, fmt.Errorf("%w: more than one JSON value", ErrArmyFile)
	}
	if a.PointsLimit < 0 || a.PointsLimit > MaxArmyPoints {
		return Army{}, fmt.Errorf("%w: points_limit must be from 0 to %d, got %d", ErrArmyFile, MaxArmyPoints, a.PointsLimit)
	}
	for k, c := range a.Creatures {
		switch {
		case strings.TrimSpace(c.Name) == "":
			return Army{}, fmt.Errorf("%w: creature %d has no name", ErrArmyFile, k+1)
		case c.Points < 0 || c.Count < 0 || c.Spellcaster < 0:
			return Army{}, fmt.Errorf("%w: creature %q: points, count and spellcaster cannot be negative", ErrArmyFile, c.Name)
		case c.Points > MaxArmyPoints || c.Count > MaxArmyCount:
			return Army{}, fmt.Errorf("%w: creature %q: points at most %d and count at most %d, got %d and %d", ErrArmyFile, c.Name, MaxArmyPoints, MaxArmyCount, c.Points, c.Count)
		}
	}
	for k, s := range a.Spells {
		switch {
		case strings.TrimSpace(s.Name) == "":
			return Army{}, fmt.Errorf("%w: spell %d has no name", ErrArmyFile, k+1)
		case s.Count < 0 || (s.Points != nil && *s.Points < 0):
			return Army{}, fmt.Errorf("%w: spell %q: points and count cannot be negative", ErrArmyFile, s.Name)
		case s.Count > MaxArmyCount || (s.Points != nil && *s.Points > MaxArmyPoints):
			return Army{}, fmt.Errorf("%w: spell %q: points at most %d and count at most %d", ErrArmyFile, s.Name, MaxArmyPoints, MaxArmyCount)
		}
	}
	return a, nil
}

func count(n int) int { return max(n, 1) }

// ArmyReport is the result of checking an army.
type ArmyReport struct {
	Total       int `json:"total"`
	SpellPoints int `json:"spell_points"`
	// CreaturePoints is what is left once the spells are taken off.
	CreaturePoints int            `json:"creature_points"`
	Factions       map[string]int `json:"factions"`
	// MainFaction is the faction with the most points, and its points.
	MainFaction       string    `json:"main_faction,omitempty"`
	MainFactionPoints int       `json:"main_faction_points"`
	Alignment         Alignment `json:"alignment,omitempty"`
	Violations        []string  `json:"violations"`
}

// Legal reports whether the army breaks no rule.
func (r ArmyReport) Legal() bool { return len(r.Violations) == 0 }

// CheckArmy applies the rules of "Composer son armée" and "Préparation du
// jeu": the total within the points limit; good (green rim) and evil
// (black or red rim) never together, neutral (blue) with anyone; a unique
// disk at most once; at least half of the points left after the spells in
// one faction; every spell known and castable by one of the army's
// casters. Every violation is reported, not only the first.
func CheckArmy(a Army) ArmyReport {
	r := ArmyReport{Factions: map[string]int{}, Violations: []string{}}
	r.checkSpells(a)
	r.checkCreatures(a)
	r.Total = r.SpellPoints + r.CreaturePoints
	if a.PointsLimit > 0 && r.Total > a.PointsLimit {
		r.addf("the army costs %d points, more than the limit of %d", r.Total, a.PointsLimit)
	}
	r.checkFaction()
	return r
}

func (r *ArmyReport) addf(format string, args ...any) {
	r.Violations = append(r.Violations, fmt.Sprintf(format, args...))
}

func (r *ArmyReport) checkSpells(a Army) {
	level := 0
	for _, c := range a.Creatures {
		level = max(level, c.Spellcaster)
	}
	for _, as := range a.Spells {
		s, ok := LookupSpell(as.Name)
		switch {
		case !ok && as.Points == nil:
			r.addf("unknown spell %q (and no points given for it)", as.Name)
			continue
		case !ok:
			r.SpellPoints += *as.Points * count(as.Count)
			continue
		}
		cost := s.Cost
		if as.Points != nil {
			cost = *as.Points
		}
		r.SpellPoints += cost * count(as.Count)
		if !CanCast(level, s) {
			if level == 0 {
				r.addf("spell %q needs a spellcaster of level %d and the army has no spellcaster", s.Name, s.Level)
			} else {
				r.addf("spell %q is level %d but the army's best spellcaster is level %d: nobody can cast it", s.Name, s.Level, level)
			}
		}
	}
}

func (r *ArmyReport) checkCreatures(a Army) {
	byAlign := map[Alignment][]string{}
	seen, unique := map[string]int{}, map[string]bool{}
	// factions names each faction by its first spelling: "Elves" and
	// "elves" are one faction, as unique names are one disk.
	factions := map[string]string{}
	var order []string
	for _, c := range a.Creatures {
		n := count(c.Count)
		r.CreaturePoints += c.Points * n
		if f := strings.TrimSpace(c.Faction); f != "" {
			if _, ok := factions[normalise(f)]; !ok {
				factions[normalise(f)] = f
			}
			r.Factions[factions[normalise(f)]] += c.Points * n
		}
		al, ok := AlignmentOf(c.Rim)
		if !ok {
			r.addf("creature %q: unknown rim colour %q (want green, blue, black or red)", c.Name, c.Rim)
		} else {
			byAlign[al] = append(byAlign[al], c.Name)
		}
		key := normalise(c.Name)
		if _, ok := seen[key]; !ok {
			order = append(order, c.Name)
		}
		seen[key] += n
		if c.Unique {
			unique[key] = true
		}
	}
	for _, name := range order {
		if k := normalise(name); unique[k] && seen[k] > 1 {
			r.addf("creature %q is unique: the army holds %d of it", name, seen[k])
		}
	}
	switch {
	case len(byAlign[Good]) > 0 && len(byAlign[Evil]) > 0:
		r.addf("good and evil disks in the same army: good %s; evil %s", strings.Join(byAlign[Good], ", "), strings.Join(byAlign[Evil], ", "))
	case len(byAlign[Good]) > 0:
		r.Alignment = Good
	case len(byAlign[Evil]) > 0:
		r.Alignment = Evil
	case len(byAlign[Neutral]) > 0:
		r.Alignment = Neutral
	}
}

func (r *ArmyReport) checkFaction() {
	names := make([]string, 0, len(r.Factions))
	for f := range r.Factions {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		if r.Factions[f] > r.MainFactionPoints {
			r.MainFaction, r.MainFactionPoints = f, r.Factions[f]
		}
	}
	if r.CreaturePoints > 0 && 2*r.MainFactionPoints < r.CreaturePoints {
		best := "no faction"
		if r.MainFaction != "" {
			best = fmt.Sprintf("the largest, %s, has %d", r.MainFaction, r.MainFactionPoints)
		}
		r.addf("at least half of the %d creature points (%d) must belong to one faction: %s", r.CreaturePoints, (r.CreaturePoints+1)/2, best)
	}
}
