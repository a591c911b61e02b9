package greatwar

import (
	"fmt"
	"slices"
	"strings"

	"tableref/models"
)

// NormalName returns the form in which unit names are compared: lower
// case, '-' and '_' read as spaces, apostrophes dropped, single spaces
// ("Men-At-Arms" and "men at arms" are the same unit).
func NormalName(s string) string {
	s = strings.NewReplacer("-", " ", "_", " ", "'", "", "’", "").Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
}

// limitedUnits are the units the text limits in number (normal form):
// "each player is allowed to have 1 Familiar" and "the Knights player may
// only have 2 Catapults in play".
var limitedUnits = []string{Familiar, Catapult}

// UnitKey returns the form in which unit names are compared: NormalName,
// and, when plurals is true, a limited unit's name followed by a plural
// "s" read as that unit ("Catapults", " CATAPULTS " and "catapult" are
// all "catapult"). Other names keep their plural: "Catapult Crews" is not
// a Catapult, nor "Dark Drakes" a "Dark Drake".
func UnitKey(name string, plurals bool) string {
	n := NormalName(name)
	if !plurals {
		return n
	}
	for _, u := range limitedUnits {
		if n == u+"s" {
			return u
		}
	}
	return n
}

// standardUnits are the standard army units of the text, the units that
// harvest besides Peasants and the only ones that may carry the Dragon
// Bones.
var standardUnits = []string{
	"men at arms", "swordsmen", "regiment of the anvil", "deepwood warriors",
	"dragon warriors", "undead horde", "grugs", "warriors of yllan",
}

// IsStandardUnit reports whether a unit name is one of the standard army
// units ("Men-At-Arms, Swordsmen, Regiment of the Anvil, Deepwood
// Warriors, Dragon Warriors, Undead Horde, Grugs, Warriors of Yllan").
func IsStandardUnit(name string) bool {
	return slices.Contains(standardUnits, NormalName(name))
}

// IsHarvesterName reports whether a unit name is a harvester: Peasants or
// a standard army unit ("all of these are called harvesters"), or one of
// the extra names a campaign declares.
func IsHarvesterName(name string, extra []string) bool {
	n := NormalName(name)
	if n == "peasants" || n == "peasant" || IsStandardUnit(n) {
		return true
	}
	for _, e := range extra {
		if NormalName(e) == n {
			return true
		}
	}
	return false
}

// IsHarvester reports whether a disk harvests: by its name, or by the
// keyword "harvester".
func IsHarvester(d models.Disk, extra []string) bool {
	return d.HasKeyword("harvester") || IsHarvesterName(d.Name, extra)
}

// Names of disks with special rules in the campaign.
const (
	Familiar       = "familiar"
	StandardBearer = "standard bearer"
	Catapult       = "catapult"
	DragonLich     = "dragon lich"
	DwarvenMiner   = "dwarven miner"
	Resurrection   = "resurrection"
	// MaxCatapults: "the Knights player may only have 2 Catapults in play
	// at any time during the game".
	MaxCatapults = 2
	// FamiliarRecharge is the gold a Familiar recharge costs.
	FamiliarRecharge = 5
	// ResurrectionTurns: "a disk can only be revived during the 3 turns
	// following its death".
	ResurrectionTurns = 3
	// StartingPoints is the worth of a starting army.
	StartingPoints = 150
)

// BannedSpells are the spells the campaign bans: "Banned Spells:
// Depletion (Entfernen)".
var BannedSpells = []string{"depletion", "entfernen"}

// IsBanned reports whether a spell name is banned.
func IsBanned(name string) bool { return slices.Contains(BannedSpells, NormalName(name)) }

// Item is a disk or spell bought or chosen for an army.
type Item struct {
	Name string `json:"name"`
	// Cost is its price in gold when bought (its points in a starting
	// army).
	Cost int `json:"cost"`
	// Faction is the disk's faction; "" (or "none") for factionless
	// disks such as Champions.
	Faction string `json:"faction,omitempty"`
	Unique  bool   `json:"unique,omitempty"`
	Spell   bool   `json:"spell,omitempty"`
}

// alignmentOnly are the disks the text reserves to one alignment, all of
// them factionless for that alignment.
var alignmentOnly = map[string]Alignment{
	"ceryx jade": Good, "oboros rex": Good, "firbolg the giant": Evil, "firbolg": Evil,
}

// isMahkim reports whether a name (normalised) or faction names a Mahkim
// disk. The text names them as a people, not one disk ("Mahkim are
// considered to be 'factionsless'. ... Makim Champions are blue (neutral)
// disks"), so every name beginning with the word Mahkim (or the text's
// spelling Makim) is one, as is an item whose faction is "mahkim".
func isMahkim(n string) bool {
	for _, w := range []string{"mahkim", "makim"} {
		if n == w || strings.HasPrefix(n, w+" ") {
			return true
		}
	}
	return false
}

// reservedTo returns the alignment the text reserves an item to, if any.
// Mahkim "may only be acquired by players of good alignment".
func reservedTo(it Item) (Alignment, bool) {
	if isMahkim(NormalName(it.Name)) || isMahkim(NormalName(it.Faction)) {
		return Good, true
	}
	al, ok := alignmentOnly[NormalName(it.Name)]
	return al, ok
}

// isFactionless reports whether an item fits any army of its buyer's
// alignment.
func isFactionless(it Item, a Alignment) bool {
	n := NormalName(it.Name)
	if al, ok := reservedTo(it); ok {
		return al == a
	}
	if (n == "dark drakes" || n == "dark drake") && a == Good {
		return true // "For players of good alignment, Dark Drakes are considered to be factionless."
	}
	f := NormalName(it.Faction)
	return f == "" || f == "none" || f == "factionless" || f == "champion" || f == "neutral"
}

// CheckArmyRule checks that an item may join the army of player p: the
// banned spell, the alignment-only disks and "no mixed armies" (one
// faction plus factionless disks).
func CheckArmyRule(p Player, it Item) error {
	n := NormalName(it.Name)
	if n == "" {
		return fmt.Errorf("an item has no name")
	}
	if it.Cost < 0 {
		return fmt.Errorf("%s: negative cost %d", it.Name, it.Cost)
	}
	if IsBanned(n) {
		return fmt.Errorf("%s is a banned spell", it.Name)
	}
	if al, ok := reservedTo(it); ok && al != p.Alignment {
		return fmt.Errorf("%s may only be acquired by players of %s alignment (%s is %s)", it.Name, al, p.Name, p.Alignment)
	}
	if isFactionless(it, p.Alignment) || it.Spell && it.Faction == "" {
		return nil
	}
	f, err := ParseFaction(it.Faction)
	if err != nil {
		return fmt.Errorf("%s: %w", it.Name, err)
	}
	if f != p.Faction {
		return fmt.Errorf("%s is a %s disk: %s plays %s, and mixed armies are not allowed", it.Name, f, p.Name, p.Faction)
	}
	return nil
}
