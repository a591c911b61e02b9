package esfah

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// RecruitEvery is the recruiting cycle: "After the final player completes
// his 5th turn play is halted to recruit. Recruiting also takes place every
// 5th turn thereafter."
const RecruitEvery = 5

// RecruitingDue reports whether recruiting takes place now, when every
// player has completed the given number of turns.
func RecruitingDue(completed int) bool {
	return completed > 0 && completed%RecruitEvery == 0
}

// NextRecruiting returns the number of completed turns at which the next
// recruiting takes place, counting the present one when it is due.
func NextRecruiting(completed int) int {
	if completed <= 0 {
		return RecruitEvery
	}
	return (completed + RecruitEvery - 1) / RecruitEvery * RecruitEvery
}

// OrderOfPlay seats the players by their Horde armies' maneuver totals,
// most first ("sit around the battlefield in order from most maneuver
// results to least"). Players with equal totals are returned in ties, in
// the order of their seats: they roll again against each other.
// The totals are not checked; SeatPlayers refuses negative ones.
func OrderOfPlay(maneuvers map[string]int) (order []string, ties [][]string) {
	order, ties, _ = seatPlayers(maneuvers, nil)
	return order, ties
}

// CheckManeuvers refuses negative maneuver totals, of the first roll or of
// a reroll: "All players roll their Horde armies and total maneuver
// results" (section 3), and a total of results rolled counts the
// maneuver icons showing, from none up. The text's other maneuver rolls
// count alike ("Any units with maneuver results flee", "If any army rolls
// 12 or more maneuvers the spell fails").
func CheckManeuvers(maneuvers map[string]int, rerolls []map[string]int) error {
	var bad []string
	for i, m := range append([]map[string]int{maneuvers}, rerolls...) {
		for _, p := range slices.Sorted(maps.Keys(m)) {
			if m[p] >= 0 {
				continue
			}
			roll := "Horde maneuver total"
			if i > 0 {
				roll = fmt.Sprintf("reroll %d", i)
			}
			bad = append(bad, fmt.Sprintf("%s of %s is %d", roll, p, m[p]))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: a total of maneuver results counts the results rolled and is never negative", strings.Join(bad, "; "))
	}
	return nil
}

// SeatPlayers is OrderOfPlay with the rerolls of the players who tie:
// "Any players tying roll their Horde armies again, against the other
// players with the same total, then sit accordingly." Each reroll orders
// one group of tied players within the seats of that group; it must name
// exactly the players of a group tied at that point (by the first roll,
// or again by an earlier reroll). The ties left, if any, are returned;
// a reroll that is not a tied group is an error, and so is a negative
// total (CheckManeuvers).
func SeatPlayers(maneuvers map[string]int, rerolls []map[string]int) (order []string, ties [][]string, err error) {
	if err := CheckManeuvers(maneuvers, rerolls); err != nil {
		return nil, nil, err
	}
	return seatPlayers(maneuvers, rerolls)
}

// seatPlayers is SeatPlayers without CheckManeuvers, for replaying the
// orders older versions recorded and for OrderOfPlay.
func seatPlayers(maneuvers map[string]int, rerolls []map[string]int) (order []string, ties [][]string, err error) {
	blocks := seat(slices.Collect(maps.Keys(maneuvers)), maneuvers)
	for i, r := range rerolls {
		names := slices.Sorted(maps.Keys(r))
		j := slices.IndexFunc(blocks, func(b []string) bool { return len(b) > 1 && slices.Equal(b, names) })
		if j < 0 {
			return nil, nil, fmt.Errorf("reroll %d (%s) is not a group of tied players (tied: %v)", i+1, strings.Join(names, ", "), tied(blocks))
		}
		blocks = slices.Replace(blocks, j, j+1, seat(names, r)...)
	}
	for _, b := range blocks {
		order = append(order, b...)
	}
	return order, tied(blocks), nil
}

// seat sorts players by total, most first, and groups those with equal
// totals, each group sorted by name.
func seat(players []string, total map[string]int) [][]string {
	players = slices.Clone(players)
	slices.SortFunc(players, func(a, b string) int {
		// Compared, not subtracted: the difference of two totals far
		// apart (a negative one given by mistake) overflows and seats
		// the smaller first.
		if c := cmp.Compare(total[b], total[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var blocks [][]string
	for i := 0; i < len(players); {
		j := i + 1
		for j < len(players) && total[players[j]] == total[players[i]] {
			j++
		}
		blocks = append(blocks, players[i:j:j])
		i = j
	}
	return blocks
}

// tied returns the groups of more than one player.
func tied(blocks [][]string) [][]string {
	var ties [][]string
	for _, b := range blocks {
		if len(b) > 1 {
			ties = append(ties, slices.Clone(b))
		}
	}
	return ties
}

// TerrainPool is the common pool of major terrain dice: "all major terrain
// dice are placed into a common pool at the start of the game. This pool
// is then used to draw new terrain from as the game progresses."
type TerrainPool struct {
	InPool []string `json:"in_pool"`
	InPlay []string `json:"in_play"`
}

// NewTerrainPool puts the named terrain dice into the pool. Names must be
// unique: "all major terrain used in a campaign should be unique".
func NewTerrainPool(names []string) (TerrainPool, error) {
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" {
			return TerrainPool{}, fmt.Errorf("terrain pool: a terrain die has no name")
		}
		if seen[n] {
			return TerrainPool{}, fmt.Errorf("terrain pool: terrain die %q twice: every major terrain should be unique", n)
		}
		seen[n] = true
	}
	return TerrainPool{InPool: slices.Clone(names)}, nil
}

// Draw moves the named terrain die from the pool into play (a home
// terrain, the frontier terrain, or expansion into new territory) and
// returns the new pool.
func (p TerrainPool) Draw(name string) (TerrainPool, error) {
	i := slices.Index(p.InPool, name)
	if i < 0 {
		return p, fmt.Errorf("terrain %q is not in the terrain pool (pool: %v)", name, p.InPool)
	}
	return TerrainPool{
		InPool: slices.Delete(slices.Clone(p.InPool), i, i+1),
		InPlay: append(slices.Clone(p.InPlay), name),
	}, nil
}
