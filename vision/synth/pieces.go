package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"tableref/models"
)

// Disk diameters in mm: Diskwars creatures, spells and terrain.
var (
	creatureDiameters = []float64{44.5, 50.8, 63.5, 88.9, 104}
	spellDiameter     = 25.0
	terrainDiameters  = []float64{127, 152.4}
)

// Rim colours and their RGB.
var rimColours = map[string]rgb{
	"green": {0.10, 0.55, 0.20},
	"blue":  {0.12, 0.30, 0.70},
	"red":   {0.72, 0.10, 0.10},
	"black": {0.08, 0.08, 0.09},
	"gold":  {0.85, 0.68, 0.20},
}

var rimNames = []string{"green", "blue", "red", "black", "gold"}

// disk is one cardboard disk of the scene.
type disk struct {
	id, kind, rim string
	x, y, r       float64 // cm, table frame
	level         int
	art           art
}

func (d disk) bottom() float64 { return float64(d.level) * Thickness }
func (d disk) top() float64    { return d.bottom() + Thickness }

// token is one chit; shape is "round", "square" or "long".
type token struct {
	id, kind, shape string
	x, y            float64
	a, b            float64 // half sizes (a = radius for round)
	angle           float64
	base            float64 // height of its underside
	value           int
	art             art
}

func (t token) top() float64 { return t.base + TokenThickness }

// placeDisks scatters the tier's disks over the view: terrain first, then
// creatures and spells, some placed over others.
func (s *Scene) placeDisks(rng *rand.Rand) {
	n := s.spec.disks[0] + rng.IntN(s.spec.disks[1]-s.spec.disks[0]+1)
	limit := 400
	if n > 20 { // a crowded table asked for by Options.Disks
		limit = 30 * n
	}
	for tries := 0; len(s.disks) < n && tries < limit; tries++ {
		d := s.newDisk(rng, len(s.disks))
		if s.spec.overlapProb > 0 && len(s.disks) > 0 && rng.Float64() < s.spec.overlapProb {
			// Lay it over an earlier disk, overlapping by 15-45 % of its radius.
			o := s.disks[rng.IntN(len(s.disks))]
			a := 2 * math.Pi * rng.Float64()
			gap := (o.r + d.r) * (0.55 + 0.3*rng.Float64())
			d.x, d.y = o.x+gap*math.Cos(a), o.y+gap*math.Sin(a)
		}
		if !s.inView(d.x, d.y, d.r, 0.4) {
			continue
		}
		level, ok := s.levelFor(d)
		if !ok {
			continue
		}
		d.level = level
		s.disks = append(s.disks, d)
	}
	for i := range s.disks {
		s.disks[i].id = fmt.Sprintf("d%d", i+1)
	}
}

func (s *Scene) newDisk(rng *rand.Rand, i int) disk {
	d := disk{kind: models.KindCreature, rim: rimNames[rng.IntN(len(rimNames))]}
	diam := creatureDiameters[rng.IntN(len(creatureDiameters))]
	switch p := rng.Float64(); {
	case i == 0 && p < 0.5:
		d.kind, diam = models.KindTerrain, terrainDiameters[rng.IntN(len(terrainDiameters))]
	case p < 0.15:
		d.kind, diam = models.KindSpell, spellDiameter
	}
	d.r = diam / 20
	x, y := s.randomViewPoint(rng, 0.85)
	d.x, d.y = x, y
	d.art = newArt(rng, d.r, rimColours[d.rim])
	return d
}

// levelFor returns the level a new disk takes: one above the highest disk
// it overlaps. It refuses overlaps where the tier allows none, a level
// above the tier's highest, a disk covering most of another, and terrain
// on anything.
func (s *Scene) levelFor(d disk) (int, bool) {
	level := 0
	for _, o := range s.disks {
		dist := math.Hypot(d.x-o.x, d.y-o.y)
		if dist >= d.r+o.r {
			continue
		}
		if s.spec.maxLevel == 0 || dist < 0.5*math.Max(d.r, o.r) {
			return 0, false
		}
		level = max(level, o.level+1)
	}
	if d.kind == models.KindTerrain && level > 0 {
		return 0, false
	}
	return level, level <= s.spec.maxLevel
}

// dropTokens scatters the tokens, some over disks, and lays each on the
// highest surface under its centre.
func (s *Scene) dropTokens(rng *rand.Rand) {
	n := s.spec.tokens[0] + rng.IntN(s.spec.tokens[1]-s.spec.tokens[0]+1)
	kinds := []struct {
		kind, shape string
		a, b        float64
	}{
		{"arrow", "long", 1.6, 0.45}, {"bolt", "long", 1.2, 0.4}, {"fireball", "round", 0.8, 0},
		{"boulder", "round", 1.0, 0}, {"damage", "square", 0.8, 0.8}, {"gold", "round", 0.65, 0},
		{"activation", "square", 0.7, 0.7},
	}
	for i := 0; i < n; i++ {
		k := kinds[rng.IntN(len(kinds))]
		t := token{id: fmt.Sprintf("t%d", i+1), kind: k.kind, shape: k.shape, a: k.a, b: k.b, angle: math.Pi * rng.Float64()}
		if len(s.disks) > 0 && rng.Float64() < 0.6 {
			d := s.disks[rng.IntN(len(s.disks))]
			a, rr := 2*math.Pi*rng.Float64(), d.r*(0.3+0.9*rng.Float64())
			t.x, t.y = d.x+rr*math.Cos(a), d.y+rr*math.Sin(a)
		} else {
			t.x, t.y = s.randomViewPoint(rng, 0.85)
		}
		if !s.inView(t.x, t.y, t.a, 0.5) || s.tokenClash(t) {
			continue
		}
		if k.kind == "damage" {
			t.value = 1 + rng.IntN(3)
		}
		t.base = s.surfaceUnder(t.x, t.y)
		t.art = newTokenArt(rng, t.kind)
		s.tokens = append(s.tokens, t)
	}
}

// tokenClash reports whether t would overlap a token already dropped.
func (s *Scene) tokenClash(t token) bool {
	for _, o := range s.tokens {
		if math.Hypot(t.x-o.x, t.y-o.y) < t.a+o.a {
			return true
		}
	}
	return false
}

// surfaceUnder returns the height of the highest disk top at (x, y).
func (s *Scene) surfaceUnder(x, y float64) float64 {
	h := 0.0
	for _, d := range s.disks {
		if math.Hypot(x-d.x, y-d.y) < d.r {
			h = math.Max(h, d.top())
		}
	}
	return h
}

// randomViewPoint returns a random table point seen in the middle share
// frac of the frame.
func (s *Scene) randomViewPoint(rng *rand.Rand, frac float64) (float64, float64) {
	for {
		u := float64(s.Camera.Width) * (0.5 + frac*(rng.Float64()-0.5))
		v := float64(s.Camera.Height) * (0.5 + frac*(rng.Float64()-0.5))
		if x, y, ok := s.tableAt(u, v, 0); ok {
			return x, y
		}
	}
}

// inView reports whether a circle at (x, y) of radius r lies inside the
// frame with a margin of marginFrac of its projected size.
func (s *Scene) inView(x, y, r, marginFrac float64) bool {
	for k := range 8 {
		a := float64(k) * math.Pi / 4
		p, ok := s.Project(models.TablePoint{X: models.Centimetres(x + r*(1+marginFrac)*math.Cos(a)), Y: models.Centimetres(y + r*(1+marginFrac)*math.Sin(a))}, 0)
		if !ok || p.U < 0 || p.V < 0 || p.U >= float64(s.Camera.Width) || p.V >= float64(s.Camera.Height) {
			return false
		}
	}
	return true
}

// tableAt returns the table point seen at pixel (u, v) at the given
// height, through the true camera.
func (s *Scene) tableAt(u, v, height float64) (float64, float64, bool) {
	r := s.ray(u, v)
	if r.dz <= 1e-9 {
		return 0, 0, false
	}
	t := (s.Height - height) / r.dz
	return r.ox + t*r.dx, r.oy + t*r.dy, true
}
