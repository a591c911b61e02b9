package esfah

import (
	"fmt"
	"maps"
	"slices"
)

// Rules added after campaigns were recorded (the half rate taken over all
// conversions, natives that cannot change the text's table nor give one
// race two terrains, the player of a capture or a recruit, player names
// without surrounding spaces, dragons in any spelling, one recruit a cycle
// for an army whatever the case of its name, races the campaign knows in
// conversions, bonus recruits and deaths and no natives misspelling a
// known race (races.go), maneuver totals not negative) refuse an event
// when it is recorded (State.Apply). An event that older versions
// recorded is replayed by State.Replay: when only such a rule refuses it,
// it is applied as those versions applied it, and State.Warnings says so.
// The effects of these events do not depend on the rules added, so a
// replayed campaign gives the effects it recorded.

// relax returns err when recording; when replaying (lax), it records err
// as a warning and returns nil.
func (s *State) relax(lax bool, e Event, err error) error {
	if !lax || err == nil {
		return err
	}
	s.Warnings = append(s.Warnings, fmt.Sprintf("turn %d, %s event: applied as recorded by an older version, though the rules now refuse it: %v", s.Round, e.Kind, err))
	return nil
}

// legacyPoints is Points as older versions worked it out, for replaying
// the recruits they recorded: campaign and army natives could change the
// text's table, and two spellings of one race could give it two terrains,
// one of which was taken at random (here the army doubles when any of
// them is its terrain, so every recruit those versions accepted is
// accepted again); only units named exactly "dragon" or "dragonkin" were
// left out; item and dragon counts were not checked.
func legacyPoints(a Army, campaign map[string]string) (map[Race]Health, error) {
	terrain, err := ParseTerrain(a.Terrain)
	if err != nil {
		return nil, fmt.Errorf("army: %w", err)
	}
	merged := maps.Clone(campaign)
	if merged == nil {
		merged = map[string]string{}
	}
	maps.Copy(merged, a.Natives)
	given, err := nativeEntries(merged)
	if err != nil {
		return nil, fmt.Errorf("army: %w", err)
	}
	health, err := healthByRace(a.Units, func(r Race) bool { return r != "dragon" && r != "dragonkin" })
	if err != nil {
		return nil, err
	}
	points := make(map[Race]Health, len(health))
	for r, h := range health {
		ts, ok := given[r]
		if !ok {
			t, err := DefaultNatives().Native(r)
			if err != nil {
				return nil, fmt.Errorf("army: %w", err)
			}
			ts = []Terrain{t}
		}
		points[r] = BasePoints(h)
		if slices.Contains(ts, terrain) {
			points[r] *= 2
		}
	}
	if err := addBonus(points, a.Bonus); err != nil {
		return nil, err
	}
	return points, nil
}

// validNatives keeps the entries of a natives map that the rules accept
// now (one terrain per race, not changing the text's table, not a
// misspelling of a race of the table), in one
// spelling: what an old campaign's new events use.
func validNatives(m map[string]string) map[string]string {
	given, err := nativeEntries(m)
	if err != nil {
		return nil
	}
	keep := Natives{}
	for r, ts := range given {
		if slices.ContainsFunc(ts, func(t Terrain) bool { return t != ts[0] }) {
			continue
		}
		if t, ok := nativeTable[r]; ok && t != ts[0] {
			continue
		}
		if DefaultNatives().nearMiss(r) != nil {
			continue
		}
		keep[r] = ts[0]
	}
	return keep.strings()
}
