package engine

import "math"

// Vec is a point or a displacement in the table frame, in centimetres.
type Vec struct{ X, Y float64 }

// Add returns v + w.
func (v Vec) Add(w Vec) Vec { return Vec{v.X + w.X, v.Y + w.Y} }

// Sub returns v - w.
func (v Vec) Sub(w Vec) Vec { return Vec{v.X - w.X, v.Y - w.Y} }

// Scale returns v scaled by f.
func (v Vec) Scale(f float64) Vec { return Vec{v.X * f, v.Y * f} }

// Dot returns the dot product of v and w.
func (v Vec) Dot(w Vec) float64 { return v.X*w.X + v.Y*w.Y }

// Cross returns the z component of the cross product of v and w.
func (v Vec) Cross(w Vec) float64 { return v.X*w.Y - v.Y*w.X }

// Len returns the length of v.
func (v Vec) Len() float64 { return math.Hypot(v.X, v.Y) }

// Angle returns the direction of v in radians, counter-clockwise from +X.
func (v Vec) Angle() float64 { return math.Atan2(v.Y, v.X) }

// Rotate returns v turned by a radians counter-clockwise.
func (v Vec) Rotate(a float64) Vec {
	s, c := math.Sincos(a)
	return Vec{c*v.X - s*v.Y, s*v.X + c*v.Y}
}

// Polar returns the point at distance r in direction a from v.
func (v Vec) Polar(r, a float64) Vec {
	s, c := math.Sincos(a)
	return Vec{v.X + r*c, v.Y + r*s}
}

// ApproxEqual reports whether v and w are within tol of each other.
func ApproxEqual(v, w Vec, tol float64) bool { return v.Sub(w).Len() <= tol }

// Circle is a disk's outline in the table frame: centre C, radius R, cm.
type Circle struct {
	C Vec
	R float64
}

// Edge returns the edge-to-edge distance of a and b: |ca - cb| - ra - rb.
// Negative means they overlap.
func Edge(a, b Circle) float64 { return a.C.Sub(b.C).Len() - (a.R + b.R) }

// Overlap reports whether a and b overlap: their edge-to-edge distance is
// below zero by more than Epsilon. Touching edges do not overlap, and
// rounding in the distance (two disks of 3.2 cm whose centres lie 6.4 cm
// apart measure -8.9e-16) must not make them.
func Overlap(a, b Circle) bool { return Edge(a, b) < -Epsilon }

// Contains reports whether point p lies in the closed disk c.
func (c Circle) Contains(p Vec) bool { return p.Sub(c.C).Len() <= c.R }
