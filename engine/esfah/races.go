package esfah

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ErrUnknownRace is wrapped by the errors refusing a race the campaign
// does not know (test with errors.Is).
var ErrUnknownRace = errors.New("unknown race")

// A race is known to a campaign when the text names it or the campaign
// gives its native terrain: the races of the text's native terrain table,
// the dragons and dragonkin of its battle size table and magic items and
// artifacts (in any spelling, see CountsForRecruiting), the races of the
// setup's natives, and those of the natives of the armies that recorded a
// recruit (State.Races). Every race of an army's units already needs a
// native terrain (Natives.Native), so these are the races of the players'
// armies too. A race enters a campaign by its natives, never by a typo in
// a recruit or a death: "Vagah" is refused, naming vagha.

// raceSet is a set of known races.
type raceSet map[Race]bool

// knows reports whether r is in the set or is a dragon, dragonkin, magic
// item or artifact.
func (k raceSet) knows(r Race) bool { return k[r] || !CountsForRecruiting(r) }

// check returns nil when r is known, else an error wrapping
// ErrUnknownRace that says what the name was given as (what) and names
// the nearest known race when one is close.
func (k raceSet) check(what string, r Race) error {
	if k.knows(r) {
		return nil
	}
	return unknownRace(what, r, slices.Collect(maps.Keys(k)))
}

// unknownRace is the error for race r, given as what, among known.
func unknownRace(what string, r Race, known []Race) error {
	if near, ok := nearestRace(r, known); ok {
		return fmt.Errorf("%s: %w %q: did you mean %s?", what, ErrUnknownRace, r, near)
	}
	names := make([]string, len(known))
	for i, k := range known {
		names[i] = string(k)
	}
	slices.Sort(names)
	return fmt.Errorf("%s: %w %q (known: %s); a race the text's native terrain table does not list needs its native terrain in \"natives\"", what, ErrUnknownRace, r, strings.Join(names, ", "))
}

// nearestRace returns the known race closest to r in spelling, when it is
// close enough to be what was meant (see closeSpelling); ties go to the
// first in sorted order, so the message is the same every time.
func nearestRace(r Race, known []Race) (Race, bool) {
	best, bestD := Race(""), -1
	for _, k := range slices.Sorted(slices.Values(known)) {
		if d := editDistance(string(r), string(k)); closeSpelling(string(r), d) && (bestD < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best, bestD >= 0
}

// closeSpelling reports whether a name at edit distance d from another is
// a misspelling of it: one or two letters wrong, swapped, missing or
// extra, in a name at least three times as long as the difference
// ("vagah" for vagha, "firewaker" for firewalker, "ferals" for feral).
func closeSpelling(name string, d int) bool {
	return d > 0 && d <= 2 && 3*d <= len([]rune(name))
}

// editDistance is the optimal string alignment distance between a and b:
// the insertions, deletions, substitutions and swaps of two neighbouring
// letters that turn one into the other.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// nearMiss refuses a race that natives would add when it is a misspelling
// of a race table already has: "Vagah": "highland" would make a second
// Vagha race, to which units and recruits spelt that way would go.
func (n Natives) nearMiss(r Race) error {
	if _, ok := n[r]; ok {
		return nil
	}
	if near, ok := nearestRace(r, slices.Collect(maps.Keys(n))); ok {
		return fmt.Errorf("native terrain of %s: %w %q: did you mean %s? (natives add races the table does not list)", r, ErrUnknownRace, r, near)
	}
	return nil
}

// knownRaces is the set of races the campaign knows for an event, with
// the natives of the army recruiting (nil for other events).
func (s *State) knownRaces(army map[string]string) raceSet {
	k := raceSet{}
	for r := range nativeTable {
		k[r] = true
	}
	for _, m := range []map[string]string{s.Natives, s.rawNatives, army} {
		for name := range m {
			// The setup natives as recorded may hold a misspelling
			// that older versions accepted (see validNatives).
			if r := NormalRace(name); r != "" && DefaultNatives().nearMiss(r) == nil {
				k[r] = true
			}
		}
	}
	for _, r := range s.Races {
		k[Race(r)] = true
	}
	return k
}

// learnRaces adds the races an army's natives give that the text's table
// and the campaign's natives do not hold to s.Races, sorted, each once;
// not a misspelling of a race of theirs, which older versions accepted.
func (s *State) learnRaces(army map[string]string) {
	table, err := DefaultNatives().With(s.Natives)
	if err != nil {
		table = DefaultNatives()
	}
	for name := range army {
		r := NormalRace(name)
		if _, ok := table[r]; ok || r == "" || table.nearMiss(r) != nil || slices.Contains(s.Races, string(r)) {
			continue
		}
		s.Races = append(s.Races, string(r))
	}
	slices.Sort(s.Races)
}

// checkSpendRaces refuses the races of a spend the campaign does not
// know: the races recruited at full rate and spent (which have no points
// anyway, but the message names the race meant) and the race a
// conversion buys (which enters the army and the ledger unchecked
// otherwise). Magic items and artifacts are bought with "items", not as
// a race.
func checkSpendRaces(known raceSet, sp Spend) error {
	for _, name := range slices.Sorted(maps.Keys(sp.Own)) {
		if err := known.check("recruit: own race", NormalRace(name)); err != nil {
			return err
		}
	}
	for i, c := range sp.Converted {
		for _, name := range slices.Sorted(maps.Keys(c.From)) {
			if err := known.check(fmt.Sprintf("recruit: conversion %d takes points from", i+1), NormalRace(name)); err != nil {
				return err
			}
		}
		if c.Items || c.Race == "" {
			continue
		}
		r := NormalRace(c.Race)
		if isItem(r) {
			return fmt.Errorf("recruit: conversion %d buys %q as a race: magic items and artifacts are bought with \"items\": true", i+1, c.Race)
		}
		if err := known.check(fmt.Sprintf("recruit: conversion %d buys", i+1), r); err != nil {
			return err
		}
	}
	return nil
}

// isItem reports whether r names magic items or artifacts.
func isItem(r Race) bool {
	words := strings.Fields(string(r))
	if len(words) == 0 {
		return false
	}
	switch strings.TrimSuffix(words[len(words)-1], "s") {
	case "item", "artifact":
		return true
	}
	return false
}
