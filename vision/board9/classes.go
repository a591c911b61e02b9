package board9

import (
	"fmt"
	"math"

	"tableref/engine/battle9"
)

// Classes are the looks of the three things a square can hold, indexed
// by battle9.Occupant (empty, a first-player piece, a second-player
// piece): the mean feature and its spread per channel. They are learned
// from a frame whose position is known (Reader.Learn), told apart in one
// frame without help (Unsupervised), or given.
type Classes struct {
	Mean  [3]Feature `json:"mean"`
	Sigma [3]Feature `json:"sigma"`
}

// minSigma keeps a class from trusting its spread more than the sensor
// and the print deserve (a log colour of 0.05 is 5 %).
const minSigma = 0.05

// scores are the log-likelihoods of f under each class.
func (c *Classes) scores(f Feature) [3]float64 {
	var s [3]float64
	for k := range 3 {
		for ch := range 3 {
			sg := math.Max(c.Sigma[k][ch], minSigma)
			d := (f[ch] - c.Mean[k][ch]) / sg
			s[k] -= 0.5*d*d + math.Log(sg)
		}
	}
	return s
}

// learnClasses fits the classes to features whose occupancy is known and
// returns them with the log-likelihood of the features under them.
func learnClasses(fs [N * N]Feature, known battle9.Occupancy) (Classes, float64, error) {
	var c Classes
	var n [3]int
	for sq, f := range fs {
		k := known[sq]
		n[k]++
		for ch := range 3 {
			c.Mean[k][ch] += f[ch]
		}
	}
	names := [3]string{"empty square", "first-player piece", "second-player piece"}
	for k := range 3 {
		if n[k] == 0 {
			return c, 0, fmt.Errorf("board9: the known position has no %s to learn its look from", names[k])
		}
		for ch := range 3 {
			c.Mean[k][ch] /= float64(n[k])
		}
	}
	for sq, f := range fs {
		k := known[sq]
		for ch := range 3 {
			d := f[ch] - c.Mean[k][ch]
			c.Sigma[k][ch] += d * d
		}
	}
	for k := range 3 {
		for ch := range 3 {
			c.Sigma[k][ch] = math.Max(minSigma, math.Sqrt(c.Sigma[k][ch]/float64(n[k])))
		}
	}
	var ll float64
	for sq, f := range fs {
		ll += c.scores(f)[known[sq]]
	}
	return c, ll, nil
}

// Unsupervised tells the three classes apart in one frame's features:
// three clusters, the one nearest the board's own colour (feature 0) being
// the empty squares; of the other two, the brighter is taken as the first
// player's (a convention: give Classes, or learn them from a known
// position, when the first player's army is the darker one).
func Unsupervised(fs [N * N]Feature) Classes {
	cent := [3]Feature{}
	// Seeds: the board's colour, the square farthest from it, and the
	// square farthest from both.
	far := func(from []Feature) Feature {
		best, bd := Feature{}, -1.0
		for _, f := range fs {
			d := math.Inf(1)
			for _, c := range from {
				d = math.Min(d, dist2(f, c))
			}
			if d > bd {
				best, bd = f, d
			}
		}
		return best
	}
	cent[1] = far(cent[:1])
	cent[2] = far(cent[:2])
	var lab [N * N]int
	for range 20 {
		var sum [3]Feature
		var n [3]int
		for sq, f := range fs {
			k := nearest(f, cent)
			lab[sq] = k
			n[k]++
			for ch := range 3 {
				sum[k][ch] += f[ch]
			}
		}
		for k := range 3 {
			if n[k] > 0 {
				for ch := range 3 {
					cent[k][ch] = sum[k][ch] / float64(n[k])
				}
			}
		}
	}
	// The empty class is the cluster nearest the board's colour.
	order := [3]int{0, 1, 2}
	e := nearest(Feature{}, cent)
	order[0], order[e] = order[e], order[0]
	a, b := order[1], order[2]
	if cent[b][0]+cent[b][1]+cent[b][2] > cent[a][0]+cent[a][1]+cent[a][2] {
		a, b = b, a
	}
	order = [3]int{order[0], a, b}
	var c Classes
	for k, src := range order {
		c.Mean[k] = cent[src]
		var v Feature
		n := 0
		for sq, f := range fs {
			if lab[sq] == src {
				n++
				for ch := range 3 {
					d := f[ch] - cent[src][ch]
					v[ch] += d * d
				}
			}
		}
		for ch := range 3 {
			c.Sigma[k][ch] = minSigma
			if n > 1 {
				c.Sigma[k][ch] = math.Max(minSigma, math.Sqrt(v[ch]/float64(n)))
			}
		}
	}
	return c
}

func dist2(a, b Feature) float64 {
	var s float64
	for ch := range 3 {
		s += (a[ch] - b[ch]) * (a[ch] - b[ch])
	}
	return s
}

func nearest(f Feature, cent [3]Feature) int {
	best, bd := 0, math.Inf(1)
	for k, c := range cent {
		if d := dist2(f, c); d < bd {
			best, bd = k, d
		}
	}
	return best
}
