package synth

import (
	"fmt"
	"math"

	"tableref/models"
)

var terrainNames = []string{"forest", "lake", "mountain", "ruins", "homeland"}

// truth builds the ground-truth layout of the scene.
func (s *Scene) truth() models.Layout {
	l := models.Layout{Version: models.Version, Source: fmt.Sprintf("synth seed %d tier %s", s.Seed, s.Tier)}
	for i, d := range s.disks {
		md := models.Disk{ID: d.id, Kind: d.kind, Rim: models.RimClass(d.rim), RimColour: d.rim, X: cm(d.x), Y: cm(d.y), R: cm(d.r), Z: d.level}
		if d.kind == models.KindTerrain {
			md.Terrain = terrainNames[i%len(terrainNames)]
		}
		md.Pixel = s.pixelCircle(d.x, d.y, d.r, d.top())
		l.Disks = append(l.Disks, md)
	}
	for _, t := range s.tokens {
		mt := models.Token{ID: t.id, Kind: t.kind, X: cm(t.x), Y: cm(t.y), R: cm(t.a)}
		if t.shape != "round" {
			mt.R = cm(math.Hypot(t.a, t.b))
			mt.Poly = t.corners()
		}
		if t.value > 0 {
			v := t.value
			mt.Value = &v
		}
		mt.Pixel = s.pixelCircle(t.x, t.y, float64(mt.R), t.top())
		mt.Touches = []string{}
		for _, d := range s.disks {
			if t.touches(d) {
				mt.Touches = append(mt.Touches, d.id)
			}
		}
		l.Tokens = append(l.Tokens, mt)
	}
	return l
}

func cm(v float64) models.Centimetres { return models.Centimetres(v) }

// pixelCircle is the image of the circle of radius r at (x, y) raised
// height: the projected centre and the mean distance of the projected
// outline from it.
func (s *Scene) pixelCircle(x, y, r, height float64) *models.ImageCircle {
	c, ok := s.Project(models.TablePoint{X: cm(x), Y: cm(y)}, height)
	if !ok {
		return nil
	}
	var sum float64
	const n = 64
	for k := range n {
		a := 2 * math.Pi * float64(k) / n
		p, ok := s.Project(models.TablePoint{X: cm(x + r*math.Cos(a)), Y: cm(y + r*math.Sin(a))}, height)
		if !ok {
			return nil
		}
		sum += math.Hypot(p.U-c.U, p.V-c.V)
	}
	return &models.ImageCircle{PX: c.U, PY: c.V, PR: sum / n}
}

// corners returns a rectangular token's outline in the table frame.
func (t token) corners() []models.TablePoint {
	c, s := math.Cos(t.angle), math.Sin(t.angle)
	var out []models.TablePoint
	for _, q := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		lx, ly := q[0]*t.a, q[1]*t.b
		out = append(out, models.TablePoint{X: cm(t.x + c*lx - s*ly), Y: cm(t.y + s*lx + c*ly)})
	}
	return out
}

// touches reports whether the token's outline meets the disk's, seen
// from above.
func (t token) touches(d disk) bool {
	if t.shape == "round" {
		return math.Hypot(t.x-d.x, t.y-d.y) <= t.a+d.r
	}
	// Distance from the disk's centre to the rectangle.
	c, s := math.Cos(t.angle), math.Sin(t.angle)
	dx, dy := d.x-t.x, d.y-t.y
	lx, ly := c*dx+s*dy, -s*dx+c*dy
	ex := math.Max(0, math.Abs(lx)-t.a)
	ey := math.Max(0, math.Abs(ly)-t.b)
	return math.Hypot(ex, ey) <= d.r
}
