package board9

import (
	"math"
	"slices"
)

// Feature is what the reader measures of a square: the colour at its
// centre over the board's own colour there, per channel (R, G, B), as a
// natural logarithm. An empty square is near 0 whatever the light; a
// piece is its army's colour over the board's.
type Feature [3]float64

// squareFeatures measures the 81 squares in the frame convention's order:
// the mean colour of the middle of each square (a disk of 0.17 squares'
// radius, inside any piece even when the camera's tilt shifts its top),
// over the board's colour there, which is a smooth fit of the light over
// the four corners of every square (where pieces rarely reach), robust to
// the corners that shadows or pieces do cover.
func squareFeatures(f *frame, g *Grid) [N * N]Feature {
	var centres [N * N][3]float64
	var samples []lightSample
	for sq := range N * N {
		x0, y0 := float64(sq%N), float64(sq/N)
		centres[sq] = meanColour(f, g, x0+0.5, y0+0.5, 0.17, true)
		for _, c := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
			px := x0 + c[0] + (0.13 * (1 - 2*c[0]))
			py := y0 + c[1] + (0.13 * (1 - 2*c[1]))
			col := meanColour(f, g, px, py, 0.06, false)
			samples = append(samples, lightSample{px, py, logColour(col)})
		}
	}
	light := fitLight(samples)
	var out [N * N]Feature
	for sq := range N * N {
		x, y := float64(sq%N)+0.5, float64(sq/N)+0.5
		lc := logColour(centres[sq])
		ref := light.at(x, y)
		for c := range 3 {
			out[sq][c] = lc[c] - ref[c]
		}
	}
	return out
}

// meanColour averages the frame's colour over a disk (round) or a square
// of half-size r around board point (x, y).
func meanColour(f *frame, g *Grid, x, y, r float64, round bool) [3]float64 {
	var sum [3]float64
	n := 0
	const k = 4
	for a := -k; a <= k; a++ {
		for b := -k; b <= k; b++ {
			dx, dy := r*float64(a)/k, r*float64(b)/k
			if round && dx*dx+dy*dy > r*r {
				continue
			}
			c, ok := f.colour(g.At(x+dx, y+dy))
			if !ok {
				continue
			}
			for i := range 3 {
				sum[i] += c[i]
			}
			n++
		}
	}
	if n == 0 {
		return [3]float64{0.5, 0.5, 0.5}
	}
	for i := range 3 {
		sum[i] /= float64(n)
	}
	return sum
}

func logColour(c [3]float64) [3]float64 {
	var out [3]float64
	for i := range 3 {
		out[i] = math.Log(math.Max(c[i], 0.004))
	}
	return out
}

type lightSample struct {
	x, y float64
	c    [3]float64
}

// lightModel is the board's log colour as a quadratic over the board.
type lightModel [3][6]float64

func terms(x, y float64) [6]float64 {
	x, y = x/N-0.5, y/N-0.5
	return [6]float64{1, x, y, x * x, x * y, y * y}
}

func (m lightModel) at(x, y float64) [3]float64 {
	t := terms(x, y)
	var out [3]float64
	for c := range 3 {
		for k := range 6 {
			out[c] += m[c][k] * t[k]
		}
	}
	return out
}

// fitLight fits the light model by least squares, three times, each time
// keeping the 60 % of samples nearest the last fit.
func fitLight(s []lightSample) lightModel {
	use := s
	var m lightModel
	for round := range 4 {
		m = fitLightOnce(use)
		if round == 3 {
			break
		}
		type res struct {
			i int
			r float64
		}
		rs := make([]res, len(s))
		for i, p := range s {
			pred := m.at(p.x, p.y)
			var r float64
			for c := range 3 {
				r += (p.c[c] - pred[c]) * (p.c[c] - pred[c])
			}
			rs[i] = res{i, r}
		}
		slices.SortFunc(rs, func(a, b res) int { return cmpFloat(a.r, b.r) })
		use = use[:0:0]
		for _, r := range rs[:max(12, len(rs)*6/10)] {
			use = append(use, s[r.i])
		}
	}
	return m
}

func fitLightOnce(s []lightSample) lightModel {
	var m lightModel
	var ata [6][6]float64
	var atb [3][6]float64
	for _, p := range s {
		t := terms(p.x, p.y)
		for i := range 6 {
			for j := range 6 {
				ata[i][j] += t[i] * t[j]
			}
			for c := range 3 {
				atb[c][i] += t[i] * p.c[c]
			}
		}
	}
	for i := range 6 {
		ata[i][i] += 1e-6
	}
	for c := range 3 {
		m[c] = solve6(ata, atb[c])
	}
	return m
}

func solve6(a [6][6]float64, b [6]float64) [6]float64 {
	for c := range 6 {
		p := c
		for r := c + 1; r < 6; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		if a[c][c] == 0 {
			continue
		}
		for r := c + 1; r < 6; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < 6; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [6]float64
	for r := 5; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < 6; k++ {
			s -= a[r][k] * x[k]
		}
		if a[r][r] != 0 {
			x[r] = s / a[r][r]
		}
	}
	return x
}
