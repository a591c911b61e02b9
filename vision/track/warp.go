package track

import (
	"errors"
	"math"
	"math/rand/v2"

	"tableref/calibration"
)

// Homography maps pixels of one view to pixels of another:
// (u, v) -> ((h0 u + h1 v + h2) / w, (h3 u + h4 v + h5) / w) with
// w = h6 u + h7 v + h8.
type Homography [9]float64

// Identity is the homography that changes nothing.
var Identity = Homography{1, 0, 0, 0, 1, 0, 0, 0, 1}

// Apply maps a pixel.
func (h Homography) Apply(u, v float64) (float64, float64) {
	w := h[6]*u + h[7]*v + h[8]
	if w == 0 {
		return math.NaN(), math.NaN()
	}
	return (h[0]*u + h[1]*v + h[2]) / w, (h[3]*u + h[4]*v + h[5]) / w
}

// Then returns the homography that applies h, then g.
func (h Homography) Then(g Homography) Homography {
	var out Homography
	for r := range 3 {
		for c := range 3 {
			for k := range 3 {
				out[3*r+c] += g[3*r+k] * h[3*k+c]
			}
		}
	}
	if out[8] != 0 {
		for i := range out {
			out[i] /= out[8]
		}
	}
	return out
}

type pt struct{ U, V float64 }

// fitHomography fits the homography taking src to dst in the least
// squares sense (calibration.FitHomography): four pairs or more (ransac
// asks for five). With two or three, or points on a line, it fits a
// similarity (shift, turn, scale), which is what a small bump mostly is.
func fitHomography(src, dst []pt) (Homography, error) {
	switch {
	case len(src) != len(dst) || len(src) < 2:
		return Homography{}, errors.New("too few point pairs")
	case len(src) < 4:
		return fitSimilarity(src, dst)
	}
	s := make([][2]float64, len(src))
	d := make([][2]float64, len(dst))
	for i := range src {
		s[i] = [2]float64{src[i].U, src[i].V}
		d[i] = [2]float64{dst[i].U, dst[i].V}
	}
	h, err := calibration.FitHomography(s, d)
	if err != nil {
		return fitSimilarity(src, dst)
	}
	return Homography{h[0][0], h[0][1], h[0][2], h[1][0], h[1][1], h[1][2], h[2][0], h[2][1], h[2][2]}, nil
}

// normalise moves points to their centroid and scales them to a mean
// distance of sqrt(2); it returns the points and (scale, -cx*scale,
// -cy*scale).
func normalise(p []pt) ([]pt, [3]float64) {
	var cx, cy float64
	for _, q := range p {
		cx += q.U
		cy += q.V
	}
	cx, cy = cx/float64(len(p)), cy/float64(len(p))
	var md float64
	for _, q := range p {
		md += math.Hypot(q.U-cx, q.V-cy)
	}
	md /= float64(len(p))
	s := 1.0
	if md > 0 {
		s = math.Sqrt2 / md
	}
	out := make([]pt, len(p))
	for i, q := range p {
		out[i] = pt{(q.U - cx) * s, (q.V - cy) * s}
	}
	return out, [3]float64{s, -cx * s, -cy * s}
}

// fitAffine fits u' = a u + b v + c, v' = d u + e v + f in the least
// squares sense (three pairs or more).
func fitAffine(src, dst []pt) (Homography, error) {
	if len(src) < 3 {
		return fitSimilarity(src, dst)
	}
	ns, ts := normalise(src)
	nd, td := normalise(dst)
	var ata [3][3]float64
	var bu, bv [3]float64
	for i := range ns {
		row := [3]float64{ns[i].U, ns[i].V, 1}
		for a := range 3 {
			bu[a] += row[a] * nd[i].U
			bv[a] += row[a] * nd[i].V
			for b := range 3 {
				ata[a][b] += row[a] * row[b]
			}
		}
	}
	xu, ok1 := solve3(ata, bu)
	xv, ok2 := solve3(ata, bv)
	if !ok1 || !ok2 {
		return fitSimilarity(src, dst)
	}
	hn := Homography{xu[0], xu[1], xu[2], xv[0], xv[1], xv[2], 0, 0, 1}
	inv := Homography{1 / td[0], 0, -td[1] / td[0], 0, 1 / td[0], -td[2] / td[0], 0, 0, 1}
	fwd := Homography{ts[0], 0, ts[1], 0, ts[0], ts[2], 0, 0, 1}
	return fwd.Then(hn).Then(inv), nil
}

// solve3 solves a 3x3 system by Cramer's rule.
func solve3(a [3][3]float64, b [3]float64) ([3]float64, bool) {
	det := func(m [3][3]float64) float64 {
		return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	}
	d := det(a)
	if math.Abs(d) < 1e-12 {
		return b, false
	}
	var x [3]float64
	for c := range 3 {
		m := a
		for r := range 3 {
			m[r][c] = b[r]
		}
		x[c] = det(m) / d
	}
	return x, true
}

// fitSimilarity fits u' = a u - b v + c, v' = b u + a v + d.
func fitSimilarity(src, dst []pt) (Homography, error) {
	n := float64(len(src))
	var sx, sy, dx, dy float64
	for i := range src {
		sx += src[i].U
		sy += src[i].V
		dx += dst[i].U
		dy += dst[i].V
	}
	sx, sy, dx, dy = sx/n, sy/n, dx/n, dy/n
	var num1, num2, den float64
	for i := range src {
		x, y := src[i].U-sx, src[i].V-sy
		X, Y := dst[i].U-dx, dst[i].V-dy
		num1 += x*X + y*Y
		num2 += x*Y - y*X
		den += x*x + y*y
	}
	if den == 0 {
		return Homography{1, 0, dx - sx, 0, 1, dy - sy, 0, 0, 1}, nil
	}
	a, b := num1/den, num2/den
	return Homography{a, -b, dx - a*sx + b*sy, b, a, dy - b*sx - a*sy, 0, 0, 1}, nil
}

// ransac finds the homography (or similarity) that the most pairs agree
// with within tol pixels, from candidate pairs; it returns it with the
// indices of its inliers. Seeded, so the same pairs give the same answer.
func ransac(src, dst []pt, tol float64, rng *rand.Rand) (Homography, []int) {
	n := len(src)
	if n < 2 {
		return Identity, nil
	}
	var best []int
	bestH := Identity
	for range 200 {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j || math.Hypot(src[i].U-src[j].U, src[i].V-src[j].V) < 5 || math.Hypot(dst[i].U-dst[j].U, dst[i].V-dst[j].V) < 5 {
			continue
		}
		h, err := fitSimilarity([]pt{src[i], src[j]}, []pt{dst[i], dst[j]})
		// A knocked camera turns a little: the view keeps its scale.
		if s := math.Hypot(h[0], h[3]); err != nil || s < 0.8 || s > 1.25 {
			continue
		}
		in := inliers(h, src, dst, tol)
		if len(in) > len(best) {
			best, bestH = in, h
		}
	}
	// Refine on the inliers, twice.
	for range 2 {
		if len(best) < 2 {
			break
		}
		var s, d []pt
		for _, k := range best {
			s = append(s, src[k])
			d = append(d, dst[k])
		}
		// A full homography only from enough disks: on a few it would fit
		// their noise.
		fit := fitHomography
		switch {
		case len(s) < 4:
			fit = fitSimilarity
		case len(s) < 5:
			fit = fitAffine
		}
		h, err := fit(s, d)
		if err != nil {
			break
		}
		in := inliers(h, src, dst, tol)
		if len(in) < len(best) {
			break
		}
		best, bestH = in, h
	}
	return bestH, best
}

func inliers(h Homography, src, dst []pt, tol float64) []int {
	var in []int
	for k := range src {
		u, v := h.Apply(src[k].U, src[k].V)
		if math.Hypot(u-dst[k].U, v-dst[k].V) <= tol {
			in = append(in, k)
		}
	}
	return in
}
