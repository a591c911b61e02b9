package esfah

import (
	"fmt"
	"strings"
)

// Color is a colour of magic.
type Color string

// The colours of magic, and the pseudo-colours of the spell tables.
const (
	Gold    Color = "gold"
	Blue    Color = "blue"
	Red     Color = "red"
	Green   Color = "green"
	Black   Color = "black"
	Any     Color = "any"     // any single colour (Summon Dragon)
	Special Color = "special" // multi-colour spells
)

// Spell is one campaign spell of the text's "New Spells and Spell
// Revisions" section.
type Spell struct {
	Name       string `json:"name"`
	Color      Color  `json:"color"`
	Cost       int    `json:"cost"`
	AmazonOnly bool   `json:"amazon_only,omitempty"`
	// OncePerAction: "may not be cast more than once in a single magic
	// action".
	OncePerAction bool `json:"once_per_action,omitempty"`
}

// Spells is the text's spell list: the revised Summon Dragon and the new
// spells.
var Spells = []Spell{
	{Name: "Summon Dragon", Color: Any, Cost: 12},
	{Name: "Barrier", Color: Gold, Cost: 5, AmazonOnly: true},
	{Name: "Quake", Color: Gold, Cost: 15},
	{Name: "Conjure Titan", Color: Gold, Cost: 25, OncePerAction: true},
	{Name: "Levitate", Color: Blue, Cost: 6, AmazonOnly: true},
	{Name: "Chain Lightning", Color: Blue, Cost: 15},
	{Name: "Create Void", Color: Blue, Cost: 25, OncePerAction: true},
	{Name: "Faerie Fire", Color: Red, Cost: 2, AmazonOnly: true},
	{Name: "Fire of Wrath", Color: Red, Cost: 15},
	{Name: "Parch Land", Color: Red, Cost: 25, OncePerAction: true},
	{Name: "Washout", Color: Green, Cost: 4, AmazonOnly: true},
	{Name: "Monsoon", Color: Green, Cost: 15},
	{Name: "Flood Waters", Color: Green, Cost: 25, OncePerAction: true},
	{Name: "Channel Dead", Color: Black, Cost: 3, AmazonOnly: true},
	{Name: "Wings of Death", Color: Black, Cost: 15, OncePerAction: true},
	{Name: "Ragnarok", Color: Black, Cost: 20},
	{Name: "Gates of the Underworld", Color: Black, Cost: 25, OncePerAction: true},
	{Name: "Monster Summoning", Color: Special, Cost: 10},
	{Name: "Deattune", Color: Special, Cost: 20, AmazonOnly: true},
	{Name: "To the Death", Color: Special, Cost: 50},
}

// LookupSpell finds a spell by name, ignoring case.
func LookupSpell(name string) (Spell, error) {
	for _, s := range Spells {
		if strings.EqualFold(s.Name, strings.TrimSpace(name)) {
			return s, nil
		}
	}
	return Spell{}, fmt.Errorf("unknown spell %q", name)
}

// monsterColors is the pair of colours of each race's monsters for
// Monster Summoning ("Trog monsters require 5 points black and 5 points
// gold"); Amazons take any two colours but black, Undead black and any
// other.
var monsterColors = map[Race][2]Color{"trog": {Black, Gold}}

// CanCast checks that magic (points by colour) pays for spell s cast by an
// army of the given race (the caster's race decides the Amazon-only
// spells; for Monster Summoning, the monster's race).
func CanCast(s Spell, race Race, magic map[Color]int) error {
	if s.AmazonOnly && race != "amazon" {
		return fmt.Errorf("%s is an Amazon only spell", s.Name)
	}
	switch s.Color {
	case Any:
		for _, n := range magic {
			if n >= s.Cost {
				return nil
			}
		}
		return fmt.Errorf("%s needs %d points of one colour", s.Name, s.Cost)
	case Special:
		if s.Name == "Monster Summoning" {
			return canSummonMonster(race, magic)
		}
		if total(magic) < s.Cost {
			return fmt.Errorf("%s needs %d points of magic in any colours, got %d", s.Name, s.Cost, total(magic))
		}
		return nil
	}
	if magic[s.Color] < s.Cost {
		return fmt.Errorf("%s needs %d points of %s magic, got %d", s.Name, s.Cost, s.Color, magic[s.Color])
	}
	return nil
}

func total(magic map[Color]int) int {
	t := 0
	for _, n := range magic {
		t += n
	}
	return t
}

// canSummonMonster: "5 points of magic of each of the two colors that
// comprise the monster being restored".
func canSummonMonster(race Race, magic map[Color]int) error {
	const each = 5
	enough := func(c Color) bool { return magic[c] >= each }
	var ok bool
	switch race {
	case "amazon":
		ok = countColors(magic, each, Black) >= 2
	case "undead":
		ok = enough(Black) && countColors(magic, each, Black) >= 1
	default:
		pair, known := monsterColors[race]
		if !known {
			return fmt.Errorf("Monster Summoning: the colours of %s monsters are not in the text; the players decide", race)
		}
		ok = enough(pair[0]) && enough(pair[1])
	}
	if !ok {
		return fmt.Errorf("Monster Summoning of a %s monster needs 5 points of each of its two colours", race)
	}
	return nil
}

// countColors counts the colours other than except with at least n points.
func countColors(magic map[Color]int, n int, except Color) int {
	c := 0
	for col, v := range magic {
		if col != except && v >= n {
			c++
		}
	}
	return c
}
