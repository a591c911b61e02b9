package models

import "math"

// Centimetres is a length in the table frame. Every range in the rules is
// a number of centimetres measured edge to edge on the table plane.
type Centimetres float64

// Float returns c as a plain float64 for arithmetic.
func (c Centimetres) Float() float64 { return float64(c) }

// Round2 returns c rounded to 0.01 cm, the precision of the analysis
// report: halves away from zero as written in decimal (1.005 cm, stored a
// little below, is 1.01), and never -0. Every distance a report or a
// ruleset shows is rounded so, so that the same distance shows the same
// digits everywhere.
func (c Centimetres) Round2() Centimetres {
	v := float64(c)
	r := math.Round(v*100+math.Copysign(1e-9, v)) / 100
	if r == 0 {
		return 0 // never -0
	}
	return Centimetres(r)
}

// TablePoint is a point in the table frame, in centimetres.
type TablePoint struct {
	X, Y Centimetres
}

// ImageCircle is a circle in the image frame, in pixels: centre (PX, PY)
// with u to the right and v down from the top-left corner, radius PR.
// Vision writes it; the engine never reads it.
type ImageCircle struct {
	PX, PY, PR float64
}
