package models

import (
	"math"
	"testing"
)

// TestRound2WritesHalvesAwayFromZero: the report's precision (table model,
// "Analysis report": "edge_cm rounded to 0.01 cm") as the extensions write
// it: halves away from zero as written in decimal, never -0. Rulesets
// round the distances they report with Centimetres.Round2, so it must
// give the digits the report's distances give.
func TestRound2WritesHalvesAwayFromZero(t *testing.T) {
	for _, c := range []struct{ in, want Centimetres }{
		{1.005, 1.01}, {0.675, 0.68}, {-1.005, -1.01}, {1.0049, 1}, {2.5, 2.5}, {-0.001, 0}, {12.344999, 12.34}, {-8.9e-16, 0},
	} {
		got := c.in.Round2()
		if got != c.want || math.Signbit(float64(got)) && got == 0 {
			t.Errorf("Centimetres(%v).Round2() = %v, want %v", c.in, got, c.want)
		}
	}
}
