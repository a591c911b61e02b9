package calibration

import (
	"fmt"
	"math"
)

// Pose places the table in camera coordinates: a table point P (x, y in
// the table plane and z along x cross y, in centimetres) is seen at
// R P + T in camera coordinates (x right, y down, z forward, cm).
type Pose struct {
	R Mat3
	T Vec3
}

// Rvec returns the pose's rotation as a rotation vector (OpenCV's rvec).
func (p Pose) Rvec() Vec3 { return RotationVector(p.R) }

// Centre returns the camera centre in the table frame (cm); its z is
// negative when the camera looks at the table from the side where the
// table frame's z is negative.
func (p Pose) Centre() Vec3 { return p.R.T().MulVec(p.T).scale(-1) }

// ToCamera returns table point (x, y, z) in camera coordinates.
func (p Pose) ToCamera(q Vec3) Vec3 { return p.R.MulVec(q).add(p.T) }

// Homography returns the homography from table points (x, y, 0) to
// undistorted pixels of cam.
func (p Pose) Homography(in Intrinsics) Mat3 {
	k := Mat3{{in.FX, 0, in.CX}, {0, in.FY, in.CY}, {0, 0, 1}}
	m := Mat3{
		{p.R[0][0], p.R[0][1], p.T[0]},
		{p.R[1][0], p.R[1][1], p.T[1]},
		{p.R[2][0], p.R[2][1], p.T[2]},
	}
	return k.Mul(m)
}

// poseFromHomography decomposes g, a homography from table points to
// undistorted pixels, into a pose for intrinsics in.
func poseFromHomography(g Mat3, in Intrinsics) (Pose, error) {
	kinv := Mat3{{1 / in.FX, 0, -in.CX / in.FX}, {0, 1 / in.FY, -in.CY / in.FY}, {0, 0, 1}}
	n := kinv.Mul(g)
	n1, n2, n3 := n.col(0), n.col(1), n.col(2)
	l := 2 / (n1.norm() + n2.norm())
	if n3[2] < 0 {
		l = -l
	}
	if math.IsNaN(l) || math.IsInf(l, 0) {
		return Pose{}, fmt.Errorf("%w: the homography has no pose", ErrDegenerate)
	}
	return Pose{R: orthonormalise(n1.scale(l), n2.scale(l)), T: n3.scale(l)}, nil
}

// poseFit is the result of fitting a pose to observed pixels.
type poseFit struct {
	Pose Pose
	// RMS is the root mean square reprojection error in pixels.
	RMS float64
	// Cov is the covariance of the six pose parameters (rotation vector,
	// translation in cm) for a corner error of RMS pixels.
	Cov [][]float64
}

// poseParams flattens a pose into (rvec, t).
func poseParams(p Pose) []float64 {
	w := p.Rvec()
	return []float64{w[0], w[1], w[2], p.T[0], p.T[1], p.T[2]}
}

func poseOf(q []float64) Pose {
	return Pose{R: Rodrigues(Vec3{q[0], q[1], q[2]}), T: Vec3{q[3], q[4], q[5]}}
}

// residuals returns the reprojection residuals (pixels) of table points
// obj seen at img through cam with pose parameters q.
func residuals(cam Camera, q []float64, obj []point2, img []Pixel) []float64 {
	p := poseOf(q)
	r := make([]float64, 0, 2*len(obj))
	for i, o := range obj {
		c := p.ToCamera(Vec3{o.X, o.Y, 0})
		if c[2] <= 1e-9 {
			r = append(r, 1e6, 1e6)
			continue
		}
		px := cam.Pixel(c[0]/c[2], c[1]/c[2])
		r = append(r, px.U-img[i].U, px.V-img[i].V)
	}
	return r
}

func sumSquares(r []float64) float64 {
	var s float64
	for _, v := range r {
		s += v * v
	}
	return s
}

// refinePose minimises the reprojection error of the table points obj
// seen at pixels img by Levenberg-Marquardt, starting from p0.
func refinePose(cam Camera, p0 Pose, obj []point2, img []Pixel) (poseFit, error) {
	q := poseParams(p0)
	res := residuals(cam, q, obj, img)
	cost := sumSquares(res)
	lambda := 1e-3
	var jac [][]float64
	for range 100 {
		jac = jacobian(cam, q, obj, img)
		jtj, jtr := normalEquations(jac, res)
		improved := false
		for range 10 {
			a := make([][]float64, 6)
			for i := range a {
				a[i] = append([]float64(nil), jtj[i]...)
				a[i][i] *= 1 + lambda
			}
			b := make([]float64, 6)
			for i := range b {
				b[i] = -jtr[i]
			}
			step, err := Solve(a, b)
			if err != nil {
				lambda *= 10
				continue
			}
			cand := make([]float64, 6)
			for i := range cand {
				cand[i] = q[i] + step[i]
			}
			cres := residuals(cam, cand, obj, img)
			if c := sumSquares(cres); c < cost {
				converged := cost-c < 1e-12*(1+cost)
				q, res, cost = cand, cres, c
				lambda = math.Max(lambda/10, 1e-12)
				improved = !converged
				break
			}
			lambda *= 10
		}
		if !improved {
			break
		}
	}
	jac = jacobian(cam, q, obj, img)
	dof := float64(len(res) - 6)
	if dof < 1 {
		dof = 1
	}
	rms := math.Sqrt(cost / float64(len(obj)))
	jtj, _ := normalEquations(jac, res)
	inv, err := invert(jtj)
	if err != nil {
		return poseFit{}, fmt.Errorf("%w: the points do not fix the camera pose", ErrDegenerate)
	}
	s2 := cost / dof
	for i := range inv {
		for j := range inv[i] {
			inv[i][j] *= s2
		}
	}
	return poseFit{Pose: poseOf(q), RMS: rms, Cov: inv}, nil
}

// jacobian returns the numerical Jacobian of the residuals with respect
// to the six pose parameters (central differences).
func jacobian(cam Camera, q []float64, obj []point2, img []Pixel) [][]float64 {
	cols := make([][]float64, 6)
	for k := range 6 {
		h := 1e-6
		if k >= 3 {
			h = 1e-5 * math.Max(1, math.Abs(q[k]))
		}
		a := append([]float64(nil), q...)
		b := append([]float64(nil), q...)
		a[k] += h
		b[k] -= h
		ra := residuals(cam, a, obj, img)
		rb := residuals(cam, b, obj, img)
		cols[k] = make([]float64, len(ra))
		for i := range ra {
			cols[k][i] = (ra[i] - rb[i]) / (2 * h)
		}
	}
	return cols
}

// normalEquations returns J^T J and J^T r for a Jacobian stored by columns.
func normalEquations(jcols [][]float64, r []float64) ([][]float64, []float64) {
	n := len(jcols)
	jtj := make([][]float64, n)
	jtr := make([]float64, n)
	for a := range n {
		jtj[a] = make([]float64, n)
		for b := range n {
			var s float64
			for i := range r {
				s += jcols[a][i] * jcols[b][i]
			}
			jtj[a][b] = s
		}
		for i := range r {
			jtr[a] += jcols[a][i] * r[i]
		}
	}
	return jtj, jtr
}
