package esfah

import (
	"fmt"
	"slices"
	"strings"
)

// Terrain is a type of major terrain die.
type Terrain string

// The major terrain types of Dragon Dice.
const (
	Flatland  Terrain = "flatland"
	Coastland Terrain = "coastland"
	Highland  Terrain = "highland"
	Swampland Terrain = "swampland"
)

// Terrains lists the major terrain types.
var Terrains = []Terrain{Flatland, Coastland, Highland, Swampland}

// ParseTerrain reads a terrain type, ignoring case and a plural ("the
// highlands" is a highland).
func ParseTerrain(s string) (Terrain, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.TrimPrefix(k, "the ")
	k = strings.TrimSuffix(k, "s")
	for _, t := range Terrains {
		if string(t) == k {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown terrain %q: use one of flatland, coastland, highland, swampland", s)
}

// Race is a Dragon Dice race, in the canonical lower-case singular form
// used by this package ("vagha", "firewalker", "swamp stalker").
type Race string

// nativeTable is the text's native terrain table ("Units in their native
// terrain ... may double all recruiting points"). An empty terrain is
// "None": Undead and the unofficial races never double.
var nativeTable = map[Race]Terrain{
	"amazon": Flatland, "feral": Flatland, "frostwing": Flatland,
	"firewalker": Coastland, "selumari": Coastland,
	"mohrel": Highland, "scalder": Highland, "vagha": Highland,
	"swamp stalker": Swampland, "treefolk": Swampland, "trog": Swampland,
	"undead":       "",
	"ether hybrid": "", "light hybrid": "", "shadow hybrid": "",
}

// raceAliases maps the plural and variant spellings of the text to the
// canonical race.
var raceAliases = map[string]Race{
	"amazons": "amazon", "frostwings": "frostwing", "firewalkers": "firewalker",
	"scalders": "scalder", "swamp stalkers": "swamp stalker", "swampstalker": "swamp stalker",
	"swampstalkers": "swamp stalker", "trogs": "trog", "ether hybrids": "ether hybrid",
	"light hybrids": "light hybrid", "shadow hybrids": "shadow hybrid",
}

// NormalRace returns the canonical spelling of a race name: lower case,
// single spaces, singular for the races the text names in the plural.
func NormalRace(s string) Race {
	k := strings.Join(strings.Fields(strings.ToLower(strings.NewReplacer("-", " ", "_", " ").Replace(s))), " ")
	if r, ok := raceAliases[k]; ok {
		return r
	}
	return Race(k)
}

// Natives is the native terrain of each race: the text's table, to which a
// campaign may add races the text does not list (Coral Elves, Dwarves,
// Goblins, Lava Elves, ... are "normally the terrain where their racial
// advantage applies", which the text leaves to the players). A race
// mapped to "" has no native terrain.
type Natives map[Race]Terrain

// DefaultNatives returns a copy of the text's native terrain table.
func DefaultNatives() Natives {
	n := make(Natives, len(nativeTable))
	for r, t := range nativeTable {
		n[r] = t
	}
	return n
}

// With returns a copy of n with the given races added or replaced (keys in
// any spelling, terrains as ParseTerrain reads them, "" or "none" for no
// native terrain).
func (n Natives) With(extra map[string]string) (Natives, error) {
	out := make(Natives, len(n)+len(extra))
	for r, t := range n {
		out[r] = t
	}
	for name, ts := range extra {
		r := NormalRace(name)
		if r == "" {
			return nil, fmt.Errorf("native terrain: empty race name")
		}
		if k := strings.ToLower(strings.TrimSpace(ts)); k == "" || k == "none" {
			out[r] = ""
			continue
		}
		t, err := ParseTerrain(ts)
		if err != nil {
			return nil, fmt.Errorf("native terrain of %s: %w", name, err)
		}
		out[r] = t
	}
	return out, nil
}

// Native returns the native terrain of race r ("" for none) or an error
// naming the races known when r is not in the table.
func (n Natives) Native(r Race) (Terrain, error) {
	t, ok := n[r]
	if !ok {
		known := make([]string, 0, len(n))
		for k := range n {
			known = append(known, string(k))
		}
		slices.Sort(known)
		return "", fmt.Errorf("unknown race %q: its native terrain is not in the table (known: %s); give it with \"natives\"", r, strings.Join(known, ", "))
	}
	return t, nil
}
