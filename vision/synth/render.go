package synth

import (
	"image"
	"math"
	"runtime"
	"sync"

	"tableref/calibration"
	"tableref/models"
)

// ray is a line of sight in the table frame: from the camera at
// (ox, oy) and height H, along (dx, dy) per unit of s, dropping dz in
// height per unit of s.
type ray struct{ ox, oy, dx, dy, dz float64 }

// ray returns the line of sight through pixel (u, v).
func (s *Scene) ray(u, v float64) ray {
	x, y := s.Camera.Normalise(calibration.Pixel{U: u, V: v})
	rt := s.Pose.R.T()
	d := rt.MulVec(calibration.Vec3{x, y, 1})
	c := s.Pose.Centre()
	return ray{ox: c[0], oy: c[1], dx: d[0], dy: d[1], dz: d[2]}
}

func (r ray) at(s float64) (float64, float64) { return r.ox + s*r.dx, r.oy + s*r.dy }

// solid is a disk or a token as the renderer sees it: a round or
// rectangular slab between heights hb and ht.
type solid struct {
	round      bool
	x, y       float64
	a, b       float64 // radius, or half sizes
	cos, sin   float64
	hb, ht     float64
	size       float64 // the art's scale (radius)
	art        *art
	side       rgb
	box        image.Rectangle // where it and its shadow may appear
	isToken    bool
	tokenShape string
}

// local returns (x, y) in the solid's own frame.
func (o *solid) local(x, y float64) (float64, float64) {
	x, y = x-o.x, y-o.y
	return o.cos*x + o.sin*y, -o.sin*x + o.cos*y
}

// edge is the distance from (x, y) to the outline, positive inside.
func (o *solid) edge(x, y float64) float64 {
	if o.round {
		return o.a - math.Hypot(x-o.x, y-o.y)
	}
	lx, ly := o.local(x, y)
	return math.Min(o.a-math.Abs(lx), o.b-math.Abs(ly))
}

// span returns the interval of s where the ray's footprint is inside
// the solid's outline.
func (o *solid) span(r ray) (float64, float64, bool) {
	if o.round {
		fx, fy := r.ox-o.x, r.oy-o.y
		a := r.dx*r.dx + r.dy*r.dy
		b := 2 * (fx*r.dx + fy*r.dy)
		c := fx*fx + fy*fy - o.a*o.a
		disc := b*b - 4*a*c
		if disc < 0 || a == 0 {
			return 0, 0, false
		}
		q := math.Sqrt(disc)
		return (-b - q) / (2 * a), (-b + q) / (2 * a), true
	}
	lx, ly := o.local(r.ox, r.oy)
	ldx, ldy := o.cos*r.dx+o.sin*r.dy, -o.sin*r.dx+o.cos*r.dy
	s0, s1 := math.Inf(-1), math.Inf(1)
	for _, ax := range [2][3]float64{{lx, ldx, o.a}, {ly, ldy, o.b}} {
		p, d, h := ax[0], ax[1], ax[2]
		if math.Abs(d) < 1e-15 {
			if math.Abs(p) > h {
				return 0, 0, false
			}
			continue
		}
		t0, t1 := (-h-p)/d, (h-p)/d
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		s0, s1 = math.Max(s0, t0), math.Min(s1, t1)
	}
	return s0, s1, s0 <= s1
}

// hit describes what a ray meets first.
type hit struct {
	s     float64
	solid int // -1: the table
	side  bool
}

// scene geometry prepared for rendering.
type stage struct {
	sc     *Scene
	solids []solid
	tiles  [][]int
	tw, th int
	board  bool
}

const tileSize = 16

func (s *Scene) stage(board bool) *stage {
	st := &stage{sc: s, board: board}
	if !board {
		for i := range s.disks {
			d := &s.disks[i]
			st.solids = append(st.solids, solid{round: true, x: d.x, y: d.y, a: d.r, cos: 1, hb: d.bottom(), ht: d.top(),
				size: d.r, art: &d.art, side: rgb{0.78, 0.75, 0.68}})
		}
		for i := range s.tokens {
			t := &s.tokens[i]
			o := solid{round: t.shape == "round", x: t.x, y: t.y, a: t.a, b: t.b, cos: math.Cos(t.angle), sin: math.Sin(t.angle),
				hb: t.base, ht: t.top(), size: t.a, art: &t.art, side: t.art.bg.scale(0.7), isToken: true, tokenShape: t.shape}
			if o.round {
				o.cos, o.sin = 1, 0
			}
			st.solids = append(st.solids, o)
		}
	}
	st.tw = (s.Camera.Width + tileSize - 1) / tileSize
	st.th = (s.Camera.Height + tileSize - 1) / tileSize
	st.tiles = make([][]int, st.tw*st.th)
	for i := range st.solids {
		st.solids[i].box = st.bbox(&st.solids[i])
		b := st.solids[i].box
		for ty := max(0, b.Min.Y/tileSize); ty <= min(st.th-1, b.Max.Y/tileSize); ty++ {
			for tx := max(0, b.Min.X/tileSize); tx <= min(st.tw-1, b.Max.X/tileSize); tx++ {
				st.tiles[ty*st.tw+tx] = append(st.tiles[ty*st.tw+tx], i)
			}
		}
	}
	return st
}

// bbox is the frame rectangle where a solid, its side and its shadow
// may be seen.
func (st *stage) bbox(o *solid) image.Rectangle {
	l := st.sc.light
	off := o.ht / l.dir[2]
	rad := math.Hypot(o.a, o.b) + 0.6 + st.sc.light.shadowSoft*o.ht
	box := image.Rectangle{Min: image.Pt(math.MaxInt32, math.MaxInt32), Max: image.Pt(math.MinInt32, math.MinInt32)}
	for _, c := range [][3]float64{{o.x, o.y, 0}, {o.x, o.y, o.ht}, {o.x - off*l.dir[0], o.y - off*l.dir[1], 0}} {
		for k := range 16 {
			a := float64(k) * math.Pi / 8
			p, ok := st.sc.Project(models.TablePoint{X: models.Centimetres(c[0] + rad*math.Cos(a)), Y: models.Centimetres(c[1] + rad*math.Sin(a))}, c[2])
			if !ok {
				return image.Rect(0, 0, st.sc.Camera.Width, st.sc.Camera.Height)
			}
			box = box.Union(image.Rect(int(p.U)-2, int(p.V)-2, int(p.U)+3, int(p.V)+3))
		}
	}
	return box
}

// trace returns what the ray through (u, v) meets first.
func (st *stage) trace(r ray, cands []int) hit {
	best := hit{s: math.Inf(1), solid: -1}
	if r.dz > 0 {
		best.s = st.sc.Height / r.dz
	}
	for _, i := range cands {
		o := &st.solids[i]
		s0, s1, ok := o.span(r)
		if !ok || s1 < 0 {
			continue
		}
		sTop := (st.sc.Height - o.ht) / r.dz
		switch {
		case sTop >= s0 && sTop <= s1:
			if sTop < best.s {
				best = hit{s: sTop, solid: i}
			}
		case s0 > sTop && st.sc.Height-s0*r.dz >= o.hb && s0 < best.s:
			best = hit{s: s0, solid: i, side: true}
		}
	}
	return best
}

// sample returns the colour seen along the ray through (u, v) and a key
// naming the region it lands in (for anti-aliasing).
func (st *stage) sample(u, v float64) (rgb, int) {
	r := st.sc.ray(u, v)
	tx, ty := int(math.Round(u))/tileSize, int(math.Round(v))/tileSize
	var cands []int
	if tx >= 0 && ty >= 0 && tx < st.tw && ty < st.th {
		cands = st.tiles[ty*st.tw+tx]
	}
	h := st.trace(r, cands)
	if math.IsInf(h.s, 1) {
		return rgb{0.2, 0.2, 0.22}, 1
	}
	x, y := r.at(h.s)
	l := st.sc.light
	if h.solid < 0 {
		col, key := st.tableColour(x, y)
		lit := st.shadow(x, y, 0, cands, -1)
		return col.scale(l.ambient + (1-l.ambient)*l.dir[2]*lit).mul(l.cast), key
	}
	o := &st.solids[h.solid]
	if h.side {
		var nx, ny float64
		if o.round {
			nx, ny = (x-o.x)/o.a, (y-o.y)/o.a
		} else {
			lx, ly := o.local(x, y)
			if o.a-math.Abs(lx) < o.b-math.Abs(ly) {
				nx, ny = math.Copysign(o.cos, lx), math.Copysign(o.sin, lx)
			} else {
				nx, ny = math.Copysign(-o.sin, ly), math.Copysign(o.cos, ly)
			}
		}
		diff := math.Max(0, nx*l.dir[0]+ny*l.dir[1])
		return o.side.scale(l.ambient + (1-l.ambient)*diff).mul(l.cast), 8*(h.solid+1) + 1
	}
	lx, ly := o.local(x, y)
	e := o.edge(x, y)
	col := o.art.colourAt(lx, ly, e, o.size)
	lit := st.shadow(x, y, o.ht, cands, h.solid)
	key := 8*(h.solid+1) + 2
	if e < o.art.rimW {
		key++
	}
	return col.scale(l.ambient + (1-l.ambient)*l.dir[2]*lit).mul(l.cast), key
}

// shadow returns how much direct light reaches (x, y) at height hgt: 1 in
// full light, less in the soft shadow of higher solids or next to them.
func (st *stage) shadow(x, y, hgt float64, cands []int, self int) float64 {
	l := st.sc.light
	lit := 1.0
	for _, i := range cands {
		o := &st.solids[i]
		dh := o.ht - hgt
		if i == self || dh <= 1e-6 {
			continue
		}
		k := dh / l.dir[2]
		qx, qy := x+k*l.dir[0], y+k*l.dir[1]
		soft := 0.02 + l.shadowSoft*dh
		in := smoothstep(-soft, soft, o.edge(qx, qy))
		// Contact darkening right next to a higher piece.
		near := o.edge(x, y)
		ao := 0.0
		if near < 0 {
			ao = 0.35 * math.Exp(near/0.12) * math.Min(1, dh/0.2)
		}
		lit *= (1 - 0.85*in) * (1 - ao)
	}
	return lit
}

func smoothstep(a, b, x float64) float64 {
	t := math.Max(0, math.Min(1, (x-a)/(b-a)))
	return t * t * (3 - 2*t)
}

// tableColour is the table's colour at (x, y), with the calibration board
// on it in the board view.
func (st *stage) tableColour(x, y float64) (rgb, int) {
	if st.board {
		b := st.sc.Board
		s := b.SquareMM / 10
		i, j := math.Floor(x/s)+1, math.Floor(y/s)+1
		if i >= 0 && j >= 0 && i <= float64(b.Cols) && j <= float64(b.Rows) {
			if (int(i)+int(j))%2 == 0 {
				return rgb{0.06, 0.06, 0.07}, 4
			}
			return rgb{0.9, 0.9, 0.88}, 5
		}
		if x > -s-1 && y > -s-1 && x < float64(b.Cols)*s+1 && y < float64(b.Rows)*s+1 {
			return rgb{0.9, 0.9, 0.88}, 5
		}
	}
	return st.sc.table.colourAt(x, y), 0
}

// render ray-casts the frame: one sample a pixel, then n x n samples
// where neighbouring pixels land in different regions. Pixel (i, j) is
// the square of side 1 centred on (u, v) = (i, j), as in OpenCV (whose
// corner finder and calibration read these images).
func (st *stage) render(n int) []rgb {
	w, h := st.sc.Camera.Width, st.sc.Camera.Height
	img := make([]rgb, w*h)
	keys := make([]int, w*h)
	parallelRows(h, func(y int) {
		for x := range w {
			img[y*w+x], keys[y*w+x] = st.sample(float64(x), float64(y))
		}
	})
	parallelRows(h, func(y int) {
		for x := range w {
			k := keys[y*w+x]
			if (x == 0 || keys[y*w+x-1] == k) && (x == w-1 || keys[y*w+x+1] == k) &&
				(y == 0 || keys[(y-1)*w+x] == k) && (y == h-1 || keys[(y+1)*w+x] == k) {
				continue
			}
			var sum rgb
			for j := range n {
				for i := range n {
					c, _ := st.sample(float64(x)+(float64(i)+0.5)/float64(n)-0.5, float64(y)+(float64(j)+0.5)/float64(n)-0.5)
					sum = sum.add(c)
				}
			}
			img[y*w+x] = sum.scale(1 / float64(n*n))
		}
	})
	return img
}

// parallelRows calls f for every row, spread over the CPUs. Each row is
// independent, so the result does not depend on the schedule.
func parallelRows(h int, f func(y int)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	rows := make(chan int, h)
	for y := range h {
		rows <- y
	}
	close(rows)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for y := range rows {
				f(y)
			}
		}()
	}
	wg.Wait()
}

// toImage converts a float frame to an 8-bit RGBA image.
func toImage(px []rgb, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	q := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v*255)))) }
	for i, c := range px {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = q(c.R), q(c.G), q(c.B), 255
	}
	return img
}
