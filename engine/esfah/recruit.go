package esfah

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// RecruitRate is the health of a race that allows one health of recruits:
// "every 4 health of a specific race allows the player to recruit 1 health
// of the same race".
const RecruitRate = 4

// Unit is the health of one race in an army (one unit or several).
type Unit struct {
	Race   string `json:"race"`
	Health Health `json:"health"`
}

// Army is an army at one terrain, as far as recruiting is concerned. The
// health of dragons, dragonkin and magic items never counts toward
// recruiting: it may be listed with the units (race "dragon", "Dragons",
// "red magic items", "artifact", ...) or given in the fields below, which
// are carried for completeness and only checked not to be negative.
type Army struct {
	// Terrain is the major terrain type where the army stands, or
	// "reserve" for an army in the reserve area (see Reserve).
	Terrain         string `json:"terrain"`
	Units           []Unit `json:"units"`
	ItemsHealth     Health `json:"items_health"`
	Dragons         int    `json:"dragons"`
	DragonkinHealth Health `json:"dragonkin_health"`
	// Bonus holds bonus recruits by race: "any bonus recruits gained are
	// not subject to doubling based on terrain".
	Bonus map[string]Health `json:"bonus,omitempty"`
	// Natives adds races to the native terrain table (race: terrain); it
	// cannot change the table (see Natives.With).
	Natives map[string]string `json:"natives,omitempty"`
}

// Reserve is where an army in the reserve area stands, for recruiting:
// "All armies in play, including armies in reserve may recruit units". It
// is no terrain, so no race is native there and nothing is doubled.
const Reserve Terrain = "reserve"

// armyTerrain reads where an army stands: a terrain type (ParseTerrain),
// or the reserve area ("reserve", "reserves", "the reserve area").
func armyTerrain(s string) (Terrain, error) {
	k := strings.Join(strings.Fields(strings.ToLower(s)), " ")
	switch strings.TrimPrefix(k, "the ") {
	case "reserve", "reserves", "reserve area":
		return Reserve, nil
	}
	t, err := ParseTerrain(s)
	if err != nil {
		return "", fmt.Errorf("%w, or reserve for an army in the reserve area", err)
	}
	return t, nil
}

// checkCounts refuses negative item, dragon and dragonkin counts.
func (a Army) checkCounts() error {
	if a.ItemsHealth < 0 || a.Dragons < 0 || a.DragonkinHealth < 0 {
		return fmt.Errorf("army: negative items_health (%d), dragons (%d) or dragonkin_health (%d)", a.ItemsHealth, a.Dragons, a.DragonkinHealth)
	}
	return nil
}

// CountsForRecruiting reports whether the health of units of race r
// counts toward recruiting: "Health in an army due to dragons, dragonkin
// and magic items do not count toward any recruiting total". Dragons,
// dragonkin, magic items and artifacts are recognised in the singular or
// plural, with a colour or not ("Dragons", "red dragon", "Dragon-kin",
// "red magic items", "artifact").
func CountsForRecruiting(r Race) bool {
	words := strings.Fields(strings.ReplaceAll(string(r), "dragon kin", "dragonkin"))
	if len(words) == 0 {
		return true
	}
	switch strings.TrimSuffix(words[len(words)-1], "s") {
	case "dragon", "dragonkin", "item", "artifact":
		return false
	}
	return true
}

// ceilDiv is a/b rounded up, for a >= 0 and b > 0: "All fractions are
// rounded up." (Not (a+b-1)/b, which wraps round near the largest Health.)
func ceilDiv(a, b Health) Health {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// BasePoints is the recruiting points of h health of one race, before any
// native terrain doubling: one per four, rounded up.
func BasePoints(h Health) Health { return ceilDiv(h, RecruitRate) }

// HalfRate is the health of another race, or of magic items, that p
// recruiting points buy: "This occurs at one-half the normal recruiting
// value", fractions rounded up. Points pooled from several races, and
// from several conversions, are added before halving (the text's Feral
// example: 3 + 5 points give 4; see CheckSpend).
func HalfRate(p Health) Health { return ceilDiv(p, 2) }

// Points returns the recruiting points of each race in the army: the
// health of each race totalled, one point per four rounded up, doubled
// where the army stands in the race's native terrain, plus bonus recruits
// (not doubled). Dragons, dragonkin and magic items are ignored.
func Points(a Army) (map[Race]Health, error) {
	return pointsWith(a, DefaultNatives())
}

// pointsWith is Points with the native terrain table table, to which the
// army's natives add.
func pointsWith(a Army, table Natives) (map[Race]Health, error) {
	terrain, err := armyTerrain(a.Terrain)
	if err != nil {
		return nil, fmt.Errorf("army: %w", err)
	}
	if err := a.checkCounts(); err != nil {
		return nil, err
	}
	natives, err := table.With(a.Natives)
	if err != nil {
		return nil, fmt.Errorf("army: %w", err)
	}
	if err := checkBonusRaces(a.Bonus, natives); err != nil {
		return nil, err
	}
	health, err := healthByRace(a.Units, CountsForRecruiting)
	if err != nil {
		return nil, err
	}
	points := make(map[Race]Health, len(health))
	for r, h := range health {
		native, err := natives.Native(r)
		if err != nil {
			return nil, fmt.Errorf("army: %w", err)
		}
		points[r] = BasePoints(h)
		if native == terrain {
			points[r] *= 2
		}
	}
	if err := addBonus(points, a.Bonus); err != nil {
		return nil, err
	}
	return points, nil
}

// healthByRace totals the health of each race whose health counts.
func healthByRace(units []Unit, counts func(Race) bool) (map[Race]Health, error) {
	health := map[Race]Health{}
	for i, u := range units {
		r := NormalRace(u.Race)
		if r == "" {
			return nil, fmt.Errorf("army: unit %d has no race", i+1)
		}
		if u.Health < 0 {
			return nil, fmt.Errorf("army: unit %d (%s) has negative health %d", i+1, r, u.Health)
		}
		if !counts(r) {
			continue // "Health in an army due to dragons, dragonkin ... do not count"
		}
		health[r] += u.Health
	}
	return health, nil
}

// checkBonusRaces refuses bonus recruits of a race the native terrain
// table in force does not hold (dragons, dragonkin and items excepted):
// the bonus points of "Vagah" would recruit a race of that name.
func checkBonusRaces(bonus map[string]Health, natives Natives) error {
	for _, name := range slices.Sorted(maps.Keys(bonus)) {
		if r := NormalRace(name); CountsForRecruiting(r) {
			if _, err := natives.Native(r); err != nil {
				return fmt.Errorf("army: bonus recruits: %w", err)
			}
		}
	}
	return nil
}

func addBonus(points map[Race]Health, bonus map[string]Health) error {
	for name, b := range bonus {
		if b < 0 {
			return fmt.Errorf("army: negative bonus %d for %s", b, name)
		}
		points[NormalRace(name)] += b
	}
	return nil
}

// Spend is how a player uses an army's recruiting points in one recruiting
// round.
type Spend struct {
	// Own is the health of each race recruited of its own race, at the
	// full rate (one health per point).
	Own map[string]Health `json:"own,omitempty"`
	// Converted lists recruits of another race or magic items bought at
	// half rate with points pooled from one or more races.
	Converted []Conversion `json:"converted,omitempty"`
}

// Conversion buys Health of Race (or of magic items when Items is set)
// with the points From each race, at half rate.
type Conversion struct {
	From   map[string]Health `json:"from"`
	Race   string            `json:"race,omitempty"`
	Items  bool              `json:"items,omitempty"`
	Health Health            `json:"health"`
}

// Total is the health a spend adds to the army, recruits and items.
func (s Spend) Total() Health {
	var t Health
	for _, h := range s.Own {
		t += h
	}
	for _, c := range s.Converted {
		t += c.Health
	}
	return t
}

// CheckSpend checks that a spend fits the army's recruiting points: no
// race spends more points than it has, nothing is negative, and the
// conversions buy at most half the points converted, rounded up, taken
// over all of them ("recruiting points may be used to recruit units of a
// different race, or to acquire magic items and artifacts. This occurs at
// one-half the normal recruiting value"): the text's 3 + 5 points buy 4
// Feral and 3 more points 2 items, 6 health for 11 points, but 3 + 5
// converted apart buy 4, not 2 + 3. Each conversion also buys at most half
// its own points, rounded up. Recruiting less than allowed is fine ("Any
// player may opt to recruit less than the maximum"); unused points are
// lost. Sums beyond the largest Health are refused.
func CheckSpend(points map[Race]Health, s Spend) error {
	return checkSpend(points, s, true)
}

// checkSpend is CheckSpend; without pooled, the half rate is only checked
// conversion by conversion, as versions before CheckSpend pooled it did.
func checkSpend(points map[Race]Health, s Spend, pooled bool) error {
	used := map[Race]Health{}
	var total Health // what the spend takes from the recruiting pool
	for name, h := range s.Own {
		if h < 0 {
			return fmt.Errorf("recruit: negative health %d of %s", h, name)
		}
		if err := addTo(used, NormalRace(name), h); err != nil {
			return fmt.Errorf("recruit: %s: %w", name, err)
		}
		if err := addHealth(&total, h); err != nil {
			return fmt.Errorf("recruit: the health recruited: %w", err)
		}
	}
	var convPoints, convHealth Health
	for i, c := range s.Converted {
		p, err := checkConversion(i, c, used)
		if err != nil {
			return err
		}
		if err := addHealth(&convPoints, p); err != nil {
			return fmt.Errorf("recruit: the points converted: %w", err)
		}
		if err := addHealth(&total, c.Health); err != nil {
			return fmt.Errorf("recruit: the health recruited: %w", err)
		}
		convHealth += c.Health // at most total, which fits
	}
	if pooled && convHealth > HalfRate(convPoints) {
		return fmt.Errorf("recruit: the conversions buy %d health with %d points in all, at half rate at most %d", convHealth, convPoints, HalfRate(convPoints))
	}
	var over []string
	for r, u := range used {
		if u > points[r] {
			over = append(over, fmt.Sprintf("%s spends %d points, has %d", r, u, points[r]))
		}
	}
	slices.Sort(over)
	if len(over) > 0 {
		return fmt.Errorf("recruit: %s", strings.Join(over, "; "))
	}
	return nil
}

// checkConversion checks one conversion, adds the points it takes to used
// and returns them.
func checkConversion(i int, c Conversion, used map[Race]Health) (Health, error) {
	if c.Items == (c.Race != "") {
		return 0, fmt.Errorf("recruit: conversion %d must buy either a race or magic items", i+1)
	}
	var pooled Health
	for name, p := range c.From {
		if p < 0 {
			return 0, fmt.Errorf("recruit: conversion %d takes negative points from %s", i+1, name)
		}
		if err := addHealth(&pooled, p); err != nil {
			return 0, fmt.Errorf("recruit: conversion %d: %w", i+1, err)
		}
		if err := addTo(used, NormalRace(name), p); err != nil {
			return 0, fmt.Errorf("recruit: conversion %d: %s: %w", i+1, name, err)
		}
	}
	if c.Health < 0 || c.Health > HalfRate(pooled) {
		return 0, fmt.Errorf("recruit: conversion %d buys %d health with %d points, at half rate at most %d", i+1, c.Health, pooled, HalfRate(pooled))
	}
	return pooled, nil
}

// addHealth adds h >= 0 to *sum, refusing a sum beyond the largest Health:
// wrapped round, it would be negative and pass every "at most" check, and
// the recruiting pool would grow by what the spend takes from it.
func addHealth(sum *Health, h Health) error {
	if h > math.MaxInt-*sum {
		return fmt.Errorf("%d + %d is beyond what a counter holds", *sum, h)
	}
	*sum += h
	return nil
}

// addTo adds h >= 0 to the points used of race r (addHealth).
func addTo(used map[Race]Health, r Race, h Health) error {
	u := used[r]
	if err := addHealth(&u, h); err != nil {
		return err
	}
	used[r] = u
	return nil
}
