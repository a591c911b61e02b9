package greatwar

import (
	"fmt"
	"strings"
)

// Alignment is the side of a faction: good or evil. Factions of the same
// alignment play as a team.
type Alignment string

// The two alignments.
const (
	Good Alignment = "good"
	Evil Alignment = "evil"
)

// ParseAlignment reads "good" or "evil" (any case).
func ParseAlignment(s string) (Alignment, error) {
	switch a := Alignment(strings.ToLower(strings.TrimSpace(s))); a {
	case Good, Evil:
		return a, nil
	}
	return "", fmt.Errorf("unknown alignment %q: use good or evil", s)
}

// Other returns the opposite alignment.
func (a Alignment) Other() Alignment {
	if a == Good {
		return Evil
	}
	return Good
}

// Faction is a Diskwars army, by its `faction` name in the table model.
type Faction string

// The Diskwars factions of the table model.
const (
	Elves     Faction = "elves"     // the Lotharian Elves
	Dwarves   Faction = "dwarves"   // the Regiment of the Anvil
	Knights   Faction = "knights"   // Falladir's Knights
	Disciples Faction = "disciples" // the Acolytes
	Orcs      Faction = "orcs"
	Uthuk     Faction = "uthuk"
	Undead    Faction = "undead"
	Dragons   Faction = "dragons"
)

// factionAlignment is the usual alignment of each faction. A homeland's
// `side` may say otherwise for a campaign that wants it.
var factionAlignment = map[Faction]Alignment{
	Elves: Good, Dwarves: Good, Knights: Good, Disciples: Good,
	Orcs: Evil, Uthuk: Evil, Undead: Evil, Dragons: Evil,
}

var factionAliases = map[string]Faction{
	"elf": Elves, "lotharian elves": Elves, "dwarf": Dwarves, "knight": Knights,
	"falladir's knights": Knights, "falladirs knights": Knights, "acolytes": Disciples,
	"accolytes": Disciples, "orc": Orcs, "uthuk y'llan": Uthuk, "uthuk yllan": Uthuk,
	"dragon": Dragons,
}

// ParseFaction reads a faction name (the table model's names, with a few
// spellings of the text accepted).
func ParseFaction(s string) (Faction, error) {
	k := strings.Join(strings.Fields(strings.ToLower(s)), " ")
	if f, ok := factionAliases[k]; ok {
		return f, nil
	}
	if _, ok := factionAlignment[Faction(k)]; ok {
		return Faction(k), nil
	}
	return "", fmt.Errorf("unknown faction %q: use one of elves, dwarves, knights, disciples, orcs, uthuk, undead, dragons", s)
}

// DefaultAlignment returns the usual alignment of a faction.
func (f Faction) DefaultAlignment() Alignment { return factionAlignment[f] }

// Terrain kinds of the table model that the campaign names.
const (
	Homeland       = "homeland"
	Forest         = "forest"
	Lake           = "lake"
	Mountain       = "mountain"
	Ruins          = "ruins"
	GoodTemple     = "good-temple"
	EvilTemple     = "evil-temple"
	ScorchedValley = "scorched-valley"
)

// NormalTerrain returns the table model's spelling of a terrain kind:
// lower case, words joined by '-', "wood"/"woods" read as forest.
func NormalTerrain(s string) string {
	k := strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, "_", " "))), "-")
	switch k {
	case "wood", "woods", "forests":
		return Forest
	case "mountains":
		return Mountain
	case "lakes":
		return Lake
	}
	return k
}

// forbidden lists the terrains an alignment may not choose: "Evil players
// may not chose to place a Forest or a Good Temple, Good players may not
// chose a Scorched Valley or an Evil Temple."
var forbidden = map[Alignment][]string{
	Evil: {Forest, GoodTemple},
	Good: {ScorchedValley, EvilTemple},
}

// MayChoose reports whether a player of alignment a may place a terrain
// of the given kind.
func MayChoose(a Alignment, kind string) bool {
	for _, k := range forbidden[a] {
		if k == NormalTerrain(kind) {
			return false
		}
	}
	return true
}

// TerrainsPerPlayer is the number of terrain disks each player places:
// "If 2 to 6 factions participate, 2 terrains may be placed by each
// faction's player. If more factions are in the game, each player may only
// place 1 terrain."
func TerrainsPerPlayer(factions int) int {
	if factions > 6 {
		return 1
	}
	return 2
}
