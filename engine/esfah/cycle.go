package esfah

import (
	"fmt"
	"slices"
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
func OrderOfPlay(maneuvers map[string]int) (order []string, ties [][]string) {
	for p := range maneuvers {
		order = append(order, p)
	}
	slices.SortFunc(order, func(a, b string) int {
		if maneuvers[a] != maneuvers[b] {
			return maneuvers[b] - maneuvers[a]
		}
		if a < b {
			return -1
		}
		return 1
	})
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && maneuvers[order[j]] == maneuvers[order[i]] {
			j++
		}
		if j-i > 1 {
			ties = append(ties, slices.Clone(order[i:j]))
		}
		i = j
	}
	return order, ties
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
