package track

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFitsRecoverTheMotion(t *testing.T) {
	src := []pt{{100, 100}, {400, 120}, {250, 350}, {600, 400}, {50, 300}, {500, 50}, {320, 200}, {700, 250}, {150, 450}}
	truths := map[string]Homography{
		"shift":      {1, 0, 7, 0, 1, -4, 0, 0, 1},
		"turn":       {math.Cos(0.02), -math.Sin(0.02), 3, math.Sin(0.02), math.Cos(0.02), 1, 0, 0, 1},
		"homography": {1.01, 0.01, 5, -0.008, 0.995, -3, 1e-5, -2e-5, 1},
	}
	for name, h := range truths {
		var dst []pt
		for _, p := range src {
			u, v := h.Apply(p.U, p.V)
			dst = append(dst, pt{u, v})
		}
		got, in := ransac(src, dst, 2, rand.New(rand.NewPCG(1, 1)))
		if len(in) != len(src) {
			t.Errorf("%s: got %d inliers, want %d", name, len(in), len(src))
		}
		for _, p := range src {
			u, v := got.Apply(p.U, p.V)
			w, z := h.Apply(p.U, p.V)
			if e := math.Hypot(u-w, v-z); e > 0.01 {
				t.Errorf("%s: at (%.0f, %.0f) got (%.3f, %.3f), want (%.3f, %.3f)", name, p.U, p.V, u, v, w, z)
				break
			}
		}
		inv, ok := got.inverse()
		if !ok {
			t.Fatalf("%s: no inverse", name)
		}
		u, v := got.Then(inv).Apply(123, 456)
		if math.Hypot(u-123, v-456) > 1e-6 {
			t.Errorf("%s: h then its inverse took (123, 456) to (%.6f, %.6f)", name, u, v)
		}
	}
}

func TestRansacIgnoresDisksThatMoved(t *testing.T) {
	src := []pt{{100, 100}, {400, 120}, {250, 350}, {600, 400}, {50, 300}}
	dst := []pt{{108, 97}, {408, 117}, {258, 347}, {608, 397}, {300, 20}} // the last one was flipped away
	h, in := ransac(src, dst, 2, rand.New(rand.NewPCG(2, 2)))
	if len(in) != 4 {
		t.Errorf("got %d inliers, want 4", len(in))
	}
	if u, v := h.Apply(0, 0); math.Hypot(u-8, v+3) > 0.01 {
		t.Errorf("got a shift of (%.2f, %.2f), want (8, -3)", u, v)
	}
}
