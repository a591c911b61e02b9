package greatwar

import (
	"math/rand/v2"
	"slices"
)

// PlayingOrder draws the playing order of a new turn: "number counters up
// to the amount of participating factions are randomly taken from a cup".
// The random source is the caller's (seed it for a reproducible draw).
func PlayingOrder(players []string, rng *rand.Rand) []string {
	out := slices.Clone(players)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// Allowance returns how many disks each player may activate in each
// activation phase of the turn, by the number of units each holds: "The
// number of disks held by [the player with most units] is divided by 3,
// factions rounded down. Each player who has at maximum twice this amount
// of disks may ... activate only two disks ... each player who has at
// maximum once this amount of disks may ... activate only one disk." The
// smaller allowance is an option: a player may still activate 3.
func Allowance(units map[string]int) map[string]int {
	most := 0
	for _, n := range units {
		most = max(most, n)
	}
	third := most / 3
	out := make(map[string]int, len(units))
	for p, n := range units {
		switch {
		case n <= third:
			out[p] = 1
		case n <= 2*third:
			out[p] = 2
		default:
			out[p] = 3
		}
	}
	return out
}
