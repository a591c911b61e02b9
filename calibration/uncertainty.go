package calibration

import (
	"math"

	"tableref/models"
)

// uncertainty propagates the fit's pose covariance and a pixel error of
// PlaneRMSPx to points seen at the centre, edges and corners of the frame.
func uncertainty(c *Calibration, fit poseFit) Uncertainty {
	w, h := float64(c.Lens.Width), float64(c.Lens.Height)
	at := func(fx, fy float64) float64 {
		mm, ok := pointSigmaMM(c, fit, Pixel{fx * w, fy * h})
		if !ok {
			return 0
		}
		return mm
	}
	worst := func(pts [][2]float64) float64 {
		var m float64
		for _, p := range pts {
			m = math.Max(m, at(p[0], p[1]))
		}
		return m
	}
	const in = 0.05
	return Uncertainty{
		CentreMM: at(0.5, 0.5),
		EdgeMM:   worst([][2]float64{{0.5, in}, {0.5, 1 - in}, {in, 0.5}, {1 - in, 0.5}}),
		CornerMM: worst([][2]float64{{in, in}, {1 - in, in}, {in, 1 - in}, {1 - in, 1 - in}}),
	}
}

// pointSigmaMM is the radial standard deviation, in mm, of the table
// point measured at pixel p.
func pointSigmaMM(c *Calibration, fit poseFit, p Pixel) (float64, bool) {
	x, y := c.Lens.Normalise(p)
	q := poseParams(fit.Pose)
	base, ok := tableFromPose(q, x, y)
	if !ok {
		return 0, false
	}
	// Pose part: J Cov J'.
	var j [2][6]float64
	for k := range 6 {
		hstep := 1e-6 * math.Max(1, math.Abs(q[k]))
		a := append([]float64(nil), q...)
		a[k] += hstep
		pt, ok := tableFromPose(a, x, y)
		if !ok {
			return 0, false
		}
		j[0][k] = (pt[0] - base[0]) / hstep
		j[1][k] = (pt[1] - base[1]) / hstep
	}
	var variance float64
	for r := range 2 {
		for a := range 6 {
			for b := range 6 {
				variance += j[r][a] * fit.Cov[a][b] * j[r][b]
			}
		}
	}
	// Pixel part: the point itself is found with an error of PlaneRMSPx.
	// That RMS is radial (the root of the mean of du² + dv²), so each of
	// u and v has half its square as variance.
	t0, err0 := c.TableFromImage(p.U, p.V, 0)
	tu, err1 := c.TableFromImage(p.U+1, p.V, 0)
	tv, err2 := c.TableFromImage(p.U, p.V+1, 0)
	if err0 != nil || err1 != nil || err2 != nil {
		return 0, false
	}
	s2 := c.Quality.PlaneRMSPx * c.Quality.PlaneRMSPx / 2
	variance += s2 * (sq(tu.X-t0.X) + sq(tu.Y-t0.Y) + sq(tv.X-t0.X) + sq(tv.Y-t0.Y))
	return 10 * math.Sqrt(variance), true
}

func sq(c models.Centimetres) float64 { return float64(c) * float64(c) }

// tableFromPose intersects the ray with normalised coordinates (x, y)
// with the table plane z = 0 for pose parameters q.
func tableFromPose(q []float64, x, y float64) ([2]float64, bool) {
	p := poseOf(q)
	rt := p.R.T()
	centre := rt.MulVec(p.T).scale(-1)
	d := rt.MulVec(Vec3{x, y, 1})
	if math.Abs(d[2]) < 1e-12 {
		return [2]float64{}, false
	}
	s := -centre[2] / d[2]
	if s <= 0 {
		return [2]float64{}, false
	}
	return [2]float64{centre[0] + s*d[0], centre[1] + s*d[1]}, true
}
