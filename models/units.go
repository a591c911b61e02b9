package models

import "math"

// Centimetres is a length in the table frame. Every range in the rules is
// a number of centimetres measured edge to edge on the table plane.
type Centimetres float64

// Float returns c as a plain float64 for arithmetic.
func (c Centimetres) Float() float64 { return float64(c) }

// Round2 returns c rounded to 0.01 cm, the precision of the analysis report.
func (c Centimetres) Round2() Centimetres {
	return Centimetres(math.Round(float64(c)*100) / 100)
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
