package esfah

import (
	"fmt"
	"maps"
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

// With returns a copy of n with the races of extra added: keys in any
// spelling (NormalRace), terrains as ParseTerrain reads them, "" or "none"
// for no native terrain. A campaign may add the races the text's table
// does not list, never change the table (nor, for an army, the campaign's
// natives). So it refuses an empty race name, an unknown terrain, two
// spellings of one race given two terrains, an entry that changes the
// terrain of a race n already has, and a race that is a misspelling of
// one n has ("Vagah" for vagha: see nearMiss). An entry repeating n's
// terrain is accepted.
func (n Natives) With(extra map[string]string) (Natives, error) {
	add, err := parseNatives(extra)
	if err != nil {
		return nil, err
	}
	out := make(Natives, len(n)+len(add))
	for r, t := range n {
		out[r] = t
	}
	for _, r := range slices.Sorted(maps.Keys(add)) {
		t := add[r]
		if had, ok := n[r]; ok && had != t {
			return nil, fmt.Errorf("native terrain of %s: %s makes it %s, not %s (natives may add races, not change a race's native terrain)", r, n.source(r), terrainName(had), terrainName(t))
		}
		if err := n.nearMiss(r); err != nil {
			return nil, err
		}
		out[r] = t
	}
	return out, nil
}

// source names where n's terrain of race r comes from, for errors.
func (n Natives) source(r Race) string {
	if t, ok := nativeTable[r]; ok && n[r] == t {
		return "the text's native terrain table"
	}
	return "the campaign's natives"
}

// terrainName is a native terrain as the text writes it ("none" for none).
func terrainName(t Terrain) string {
	if t == "" {
		return "none"
	}
	return string(t)
}

// parseNatives reads a natives map, one entry per race: two spellings of
// one race must give the same terrain.
func parseNatives(m map[string]string) (Natives, error) {
	given, err := nativeEntries(m)
	if err != nil {
		return nil, err
	}
	out := make(Natives, len(given))
	for _, r := range slices.Sorted(maps.Keys(given)) {
		ts := given[r]
		for _, t := range ts[1:] {
			if t != ts[0] {
				return nil, fmt.Errorf("native terrain of %s: given twice, as %s and %s (spellings of one race)", r, terrainName(ts[0]), terrainName(t))
			}
		}
		out[r] = ts[0]
	}
	return out, nil
}

// nativeEntries reads a natives map into the terrains given to each race
// (several when spellings of one race repeat it), in the order of the
// keys. It refuses an empty race name and an unknown terrain.
func nativeEntries(m map[string]string) (map[Race][]Terrain, error) {
	out := map[Race][]Terrain{}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		r := NormalRace(name)
		if r == "" {
			return nil, fmt.Errorf("native terrain: empty race name")
		}
		t, err := parseNative(m[name])
		if err != nil {
			return nil, fmt.Errorf("native terrain of %s: %w", name, err)
		}
		out[r] = append(out[r], t)
	}
	return out, nil
}

// parseNative reads a native terrain: a terrain type, or "" or "none".
func parseNative(s string) (Terrain, error) {
	if k := strings.ToLower(strings.TrimSpace(s)); k == "" || k == "none" {
		return "", nil
	}
	return ParseTerrain(s)
}

// normalNatives returns a natives map in one spelling, for keeping: races
// as NormalRace writes them, terrains as ParseTerrain reads them ("none"
// for none). It refuses what With refuses against the text's table.
func normalNatives(m map[string]string) (map[string]string, error) {
	if _, err := DefaultNatives().With(m); err != nil {
		return nil, err
	}
	n, err := parseNatives(m)
	if err != nil {
		return nil, err
	}
	return n.strings(), nil
}

func (n Natives) strings() map[string]string {
	if len(n) == 0 {
		return nil
	}
	out := make(map[string]string, len(n))
	for r, t := range n {
		out[string(r)] = terrainName(t)
	}
	return out
}

// Native returns the native terrain of race r ("" for none) or an error
// naming the races known when r is not in the table.
func (n Natives) Native(r Race) (Terrain, error) {
	t, ok := n[r]
	if !ok {
		known := slices.Sorted(maps.Keys(n))
		if near, ok := nearestRace(r, known); ok {
			return "", fmt.Errorf("%w %q: did you mean %s? (its native terrain is not in the table; a race the table does not list is given with \"natives\")", ErrUnknownRace, r, near)
		}
		names := make([]string, len(known))
		for i, k := range known {
			names[i] = string(k)
		}
		return "", fmt.Errorf("%w %q: its native terrain is not in the table (known: %s); give it with \"natives\"", ErrUnknownRace, r, strings.Join(names, ", "))
	}
	return t, nil
}
