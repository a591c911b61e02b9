package synth

import (
	"math"
	"slices"

	"tableref/calibration"
	"tableref/models"
)

// PlaneErrors measures a calibration against the scene's true camera:
// for table points on a grid of step cm over a square of side cm centred
// on the point the camera looks at, seen in the frame, the distance in mm
// between the point and where the calibration puts the pixel the true
// camera sees it at.
func PlaneErrors(s *Scene, cal *calibration.Calibration, side, step float64) []float64 {
	var errs []float64
	for y := -side / 2; y <= side/2+1e-9; y += step {
		for x := -side / 2; x <= side/2+1e-9; x += step {
			p := models.TablePoint{X: s.Centre.X + cm(x), Y: s.Centre.Y + cm(y)}
			px, ok := s.Project(p, 0)
			if !ok || px.U < 0 || px.V < 0 || px.U >= float64(s.Camera.Width) || px.V >= float64(s.Camera.Height) {
				continue
			}
			got, err := cal.TableFromImage(px.U, px.V, 0)
			if err != nil {
				errs = append(errs, math.Inf(1))
				continue
			}
			errs = append(errs, 10*math.Hypot(float64(got.X-p.X), float64(got.Y-p.Y)))
		}
	}
	return errs
}

// Percentile returns the p-th percentile (0 to 100) of vs, nearest rank;
// NaN for no values.
func Percentile(vs []float64, p float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}
