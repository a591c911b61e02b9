package synth

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"tableref/calibration"
	"tableref/models"
)

// GameOptions shape a rendered game; the zero value gives ten minutes of
// an easy table at 30 frames a second, 960x540, two camera bumps, and
// disks whose two faces differ.
type GameOptions struct {
	Tier          Tier
	Width, Height int
	FPS           int
	Minutes       float64
	// SameFaces prints the same art on both faces of every disk; by
	// default each disk has a different back face, the harder case for
	// identity by appearance.
	SameFaces bool
	// Bumps is how many times the camera is knocked during the game
	// (default 2; negative: none).
	Bumps int
}

func (o GameOptions) withDefaults() GameOptions {
	if o.Tier == "" {
		o.Tier = Easy
	}
	if o.Width == 0 || o.Height == 0 {
		o.Width, o.Height = 960, 540
	}
	if o.FPS <= 0 {
		o.FPS = 30
	}
	if o.Minutes <= 0 {
		o.Minutes = 10
	}
	if o.Bumps == 0 {
		o.Bumps = 2
	}
	return o
}

// Frame is one frame of a game with its ground truth.
type Frame struct {
	Index int
	// Image is the photograph. The game reuses it: it is valid until the
	// next call of Next.
	Image *image.RGBA
	// Truth is the table as it lies (every disk and token at rest or,
	// during a flip, where it has landed so far; its pixels are those of
	// the camera as it now is). Shared between frames: do not modify.
	Truth models.Layout
	// Moving: a piece, the camera or a hand moves in this frame, or a
	// hand is over the table: no ruling may be made on it.
	Moving bool
	// Hand: an arm is drawn over the table, within HandBox (pixels).
	Hand    bool
	HandBox image.Rectangle
	// Action names what is going on: move, volley, sweep, remove, wave,
	// reinforce, bump, or "" at rest.
	Action string
	// Bumps counts the camera bumps so far.
	Bumps int
}

// Game is a rendered game: a scene whose pieces are moved by flips, shot
// at with volleys of tokens, swept, removed and reinforced by a hand, with
// the camera knocked now and then. Frames are rendered only when the
// table changes; a held frame is the last render with fresh sensor noise.
// Deterministic from its seed. Not safe for concurrent use.
type Game struct {
	Scene *Scene
	opt   GameOptions
	rng   *rand.Rand
	total int
	next  int
	queue []planned
	bumps []int // frames at which the camera is knocked
	nbump int

	base     *image.RGBA
	dirty    bool
	buf      *image.RGBA
	noise    [][]int8
	truth    models.Layout
	movement map[string]int
	backs    map[string][2]art
	face     map[string]int
	nextDisk int
	nextTok  int
	pxPerCm  float64
}

// planned is one frame of an action.
type planned struct {
	change func() // applied before the frame is drawn
	arm    *arm
	moving bool
	action string
}

// arm is an arm reaching in from the frame's edge: a capsule from entry
// to tip, half as wide as hw, in pixels.
type arm struct {
	ex, ey, tx, ty, hw float64
	sleeve             rgb
}

// NewGame builds the game of the given seed.
func NewGame(seed uint64, opt GameOptions) (*Game, error) {
	opt = opt.withDefaults()
	if opt.Minutes > 120 {
		return nil, fmt.Errorf("game of %.0f minutes: want at most 120", opt.Minutes)
	}
	s, err := Generate(seed, opt.Tier, Options{Width: opt.Width, Height: opt.Height})
	if err != nil {
		return nil, err
	}
	g := &Game{Scene: s, opt: opt, rng: rand.New(rand.NewPCG(seed, 0x6a3e)), dirty: true,
		movement: map[string]int{}, backs: map[string][2]art{}, face: map[string]int{}}
	g.total = int(opt.Minutes * 60 * float64(opt.FPS))
	for i := range s.disks {
		g.adopt(&s.disks[i])
	}
	g.nextDisk = len(s.disks)
	g.nextTok = len(s.tokens)
	for k := 1; k <= opt.Bumps; k++ {
		g.bumps = append(g.bumps, g.total*k/(opt.Bumps+1))
	}
	g.pxPerCm = g.scale()
	g.makeNoise()
	g.buf = image.NewRGBA(image.Rect(0, 0, opt.Width, opt.Height))
	// Start at rest, long enough for a first ruling.
	g.queue = g.rest(3 * opt.FPS)
	return g, nil
}

// Len is the number of frames of the game.
func (g *Game) Len() int { return g.total }

// FPS is the game's frame rate.
func (g *Game) FPS() int { return g.opt.FPS }

// adopt gives a disk its movement and its back face.
func (g *Game) adopt(d *disk) {
	g.movement[d.id] = 2 + g.rng.IntN(4)
	back := d.art
	if !g.opt.SameFaces {
		back = newArt(g.rng, d.r, rimColours[d.rim])
	}
	g.backs[d.id] = [2]art{d.art, back}
}

// scale is roughly how many pixels a centimetre of table spans near the
// middle of the view.
func (g *Game) scale() float64 {
	s := g.Scene
	a, ok1 := s.Project(s.Centre, 0)
	b, ok2 := s.Project(models.TablePoint{X: s.Centre.X + 10, Y: s.Centre.Y}, 0)
	if !ok1 || !ok2 {
		return float64(g.opt.Width) / 100
	}
	return math.Hypot(a.U-b.U, a.V-b.V) / 10
}

// makeNoise precomputes fields of sensor noise, drawn from at random
// offsets for each frame.
func (g *Game) makeNoise() {
	n := 3 * g.opt.Width * g.opt.Height
	sigma := 0.9 * g.Scene.spec.noise
	for k := range 3 {
		rng := rand.New(rand.NewPCG(g.Scene.Seed, uint64(k)+100))
		f := make([]int8, n)
		for i := range f {
			f[i] = int8(max(-60, min(60, math.Round(sigma*rng.NormFloat64()))))
		}
		g.noise = append(g.noise, f)
	}
}

// Next returns the next frame, and false after the last.
func (g *Game) Next() (Frame, bool) {
	if g.next >= g.total {
		return Frame{}, false
	}
	for len(g.queue) == 0 {
		g.queue = g.plan()
	}
	p := g.queue[0]
	g.queue = g.queue[1:]
	if p.change != nil {
		p.change()
		g.dirty = true
	}
	if g.dirty {
		g.render()
	}
	f := Frame{Index: g.next, Truth: g.truth, Moving: p.moving, Action: p.action, Bumps: g.nbump}
	copy(g.buf.Pix, g.base.Pix)
	if p.arm != nil {
		f.HandBox = g.drawArm(p.arm)
		f.Hand = !f.HandBox.Empty()
	}
	g.addNoise()
	f.Image = g.buf
	g.next++
	return f, true
}

// render ray-casts the table as it now is, without sensor noise.
func (g *Game) render() {
	s := g.Scene
	px := s.stage(false).render(2)
	s.applyLight(px)
	blur(px, s.Camera.Width, s.Camera.Height, s.spec.blur)
	g.base = toImage(px, s.Camera.Width, s.Camera.Height)
	g.truth = s.truth()
	for i := range g.truth.Disks {
		d := &g.truth.Disks[i]
		d.Stats = models.Stats{"movement": g.movement[d.ID]}
	}
	g.dirty = false
}

func (g *Game) addNoise() {
	f := g.noise[g.rng.IntN(len(g.noise))]
	off := g.rng.IntN(len(f))
	pix := g.buf.Pix
	k := off
	for i := 0; i < len(pix); i += 4 {
		for c := range 3 {
			v := int(pix[i+c]) + int(f[k])
			pix[i+c] = uint8(max(0, min(255, v)))
			k++
			if k == len(f) {
				k = 0
			}
		}
	}
}

// plan returns the frames of the next action, or of a rest, or of a
// camera bump when one is due.
func (g *Game) plan() []planned {
	if g.nbump < len(g.bumps) && g.next+len(g.queue) >= g.bumps[g.nbump] {
		g.nbump++
		return append(g.bump(), g.rest(g.restLength())...)
	}
	var act []planned
	switch p := g.rng.Float64(); {
	case p < 0.5:
		act = g.move()
	case p < 0.65:
		act = g.volley()
	case p < 0.75:
		act = g.sweep()
	case p < 0.85:
		act = g.wave()
	case p < 0.92:
		act = g.remove()
	default:
		act = g.reinforce()
	}
	return append(act, g.rest(g.restLength())...)
}

// restLength is a player's pause: 1.5 to 8 seconds.
func (g *Game) restLength() int {
	return int(float64(g.opt.FPS) * (1.5 + 6.5*g.rng.Float64()*g.rng.Float64()))
}

func (g *Game) rest(n int) []planned { return make([]planned, n) }

// reach returns the frames of an arm reaching from the nearest edge to
// pixel (u, v) (in), or withdrawing (out).
func (g *Game) reach(u, v float64, n int, in bool, action string) []planned {
	w, h := float64(g.opt.Width), float64(g.opt.Height)
	ex, ey := u, v
	switch m := min(u, w-u, v, h-v); m {
	case u:
		ex = -40
	case w - u:
		ex = w + 40
	case v:
		ey = -40
	default:
		ey = h + 40
	}
	hw := 4.5 * g.pxPerCm
	sleeve := hsvColour(g.rng.Float64(), 0.5, 0.5)
	var out []planned
	for k := range n {
		t := float64(k+1) / float64(n)
		if !in {
			t = 1 - float64(k+1)/float64(n)
		}
		a := &arm{ex: ex, ey: ey, tx: ex + t*(u-ex), ty: ey + t*(v-ey), hw: hw, sleeve: sleeve}
		out = append(out, planned{arm: a, moving: true, action: action})
	}
	return out
}

// hold returns n frames of the arm a held still over the table.
func hold(a *arm, n int, action string) []planned {
	out := make([]planned, n)
	for i := range out {
		out[i] = planned{arm: a, moving: true, action: action}
	}
	return out
}

// pixelOf is where the camera sees table point (x, y) at height h.
func (g *Game) pixelOf(x, y, h float64) (float64, float64) {
	p, _ := g.Scene.Project(models.TablePoint{X: cm(x), Y: cm(y)}, h)
	return p.U, p.V
}

// movable returns the indices of the disks a player may flip.
func (g *Game) movable() []int {
	var out []int
	for i, d := range g.Scene.disks {
		if d.kind != models.KindTerrain {
			out = append(out, i)
		}
	}
	return out
}

// free reports whether a disk of radius r at (x, y) would lie in view
// and clear of every disk but skip.
func (g *Game) free(x, y, r float64, skip int) bool {
	s := g.Scene
	if !s.inView(x, y, r, 0.3) {
		return false
	}
	for i, o := range s.disks {
		if i != skip && math.Hypot(x-o.x, y-o.y) < r+o.r+0.3 {
			return false
		}
	}
	return true
}

// move flips a disk up to its movement, one diameter a flip, in a
// direction that keeps it in view and off the others.
func (g *Game) move() []planned {
	ids := g.movable()
	if len(ids) == 0 {
		return g.wave()
	}
	i := ids[g.rng.IntN(len(ids))]
	d := g.Scene.disks[i]
	want := 1 + g.rng.IntN(g.movement[d.id])
	var dx, dy float64
	flips := 0
	for range 16 {
		a := 2 * math.Pi * g.rng.Float64()
		ux, uy := math.Cos(a), math.Sin(a)
		k := 0
		for k < want && g.free(d.x+float64(k+1)*2*d.r*ux, d.y+float64(k+1)*2*d.r*uy, d.r, i) {
			k++
		}
		if k > flips {
			flips, dx, dy = k, ux, uy
		}
		if flips == want {
			break
		}
	}
	if flips == 0 {
		return g.wave()
	}
	u, v := g.pixelOf(d.x, d.y, d.top())
	out := g.reach(u, v, 8, true, "move")
	id := d.id
	for k := 1; k <= flips; k++ {
		x, y := d.x+float64(k)*2*d.r*dx, d.y+float64(k)*2*d.r*dy
		fu, fv := g.pixelOf(x, y, d.top())
		a := *out[len(out)-1].arm
		a.tx, a.ty = fu, fv
		step := hold(&a, 3, "move")
		step[0].change = func() { g.flip(id, x, y) }
		out = append(out, step...)
	}
	last := out[len(out)-1].arm
	return append(out, g.reach(last.tx, last.ty, 8, false, "move")...)
}

// flip lands disk id at (x, y) on its other face, turned anyhow; the
// tokens lying on it fall off and are taken away.
func (g *Game) flip(id string, x, y float64) {
	s := g.Scene
	for i := range s.disks {
		d := &s.disks[i]
		if d.id != id {
			continue
		}
		g.dropTokensOn(*d)
		g.face[id] = 1 - g.face[id]
		d.art = g.backs[id][g.face[id]]
		d.art.angle = 2 * math.Pi * g.rng.Float64()
		d.x, d.y = x, y
		return
	}
}

// dropTokensOn removes the tokens touching disk d.
func (g *Game) dropTokensOn(d disk) {
	s := g.Scene
	kept := s.tokens[:0]
	for _, t := range s.tokens {
		if !t.touches(d) {
			kept = append(kept, t)
		}
	}
	s.tokens = kept
}

// volley drops three to seven projectiles around a disk: they land
// scattered, bounce, and come to rest.
func (g *Game) volley() []planned {
	s := g.Scene
	if len(s.disks) == 0 {
		return g.wave()
	}
	d := s.disks[g.rng.IntN(len(s.disks))]
	kinds := []struct {
		kind, shape string
		a, b        float64
	}{{"arrow", "long", 1.6, 0.45}, {"bolt", "long", 1.2, 0.4}, {"fireball", "round", 0.8, 0}, {"boulder", "round", 1.0, 0}}
	k := kinds[g.rng.IntN(len(kinds))]
	var drop []token
	for range 3 + g.rng.IntN(5) {
		a, rr := 2*math.Pi*g.rng.Float64(), d.r*(0.2+1.3*g.rng.Float64())
		g.nextTok++
		t := token{id: fmt.Sprintf("t%d", g.nextTok), kind: k.kind, shape: k.shape, a: k.a, b: k.b, angle: math.Pi * g.rng.Float64(),
			x: d.x + rr*math.Cos(a), y: d.y + rr*math.Sin(a)}
		if !s.inView(t.x, t.y, t.a, 0.5) {
			continue
		}
		t.art = newTokenArt(g.rng, t.kind)
		drop = append(drop, t)
	}
	u, v := g.pixelOf(d.x, d.y, 0)
	out := g.reach(u, v, 6, true, "volley")
	a := out[len(out)-1].arm
	// In the air and bouncing: scattered, then nearer, then at rest.
	for _, spread := range []float64{1.5, 0.5, 0} {
		sp := spread
		step := hold(a, 2, "volley")
		step[0].change = func() { g.land(drop, sp) }
		out = append(out, step...)
	}
	return append(out, g.reach(a.tx, a.ty, 6, false, "volley")...)
}

// land lays the dropped tokens spread cm from where they come to rest.
func (g *Game) land(drop []token, spread float64) {
	s := g.Scene
	ids := map[string]bool{}
	for _, t := range drop {
		ids[t.id] = true
	}
	kept := s.tokens[:0]
	for _, t := range s.tokens {
		if !ids[t.id] {
			kept = append(kept, t)
		}
	}
	s.tokens = kept
	for i, t := range drop {
		a := float64(i) * 2.4
		t.x += spread * math.Cos(a)
		t.y += spread * math.Sin(a)
		t.angle += spread
		if s.tokenClash(t) {
			continue
		}
		t.base = s.surfaceUnder(t.x, t.y)
		s.tokens = append(s.tokens, t)
	}
}

// sweep takes every token off the table.
func (g *Game) sweep() []planned {
	s := g.Scene
	if len(s.tokens) == 0 {
		return g.volley()
	}
	t := s.tokens[g.rng.IntN(len(s.tokens))]
	u, v := g.pixelOf(t.x, t.y, 0)
	out := g.reach(u, v, 6, true, "sweep")
	step := hold(out[len(out)-1].arm, 4, "sweep")
	step[0].change = func() { s.tokens = nil }
	out = append(out, step...)
	return append(out, g.reach(u, v, 6, false, "sweep")...)
}

// wave passes a hand over the table, holds it still a moment and takes
// it back; nothing changes.
func (g *Game) wave() []planned {
	x, y := g.Scene.randomViewPoint(g.rng, 0.7)
	u, v := g.pixelOf(x, y, 0)
	out := g.reach(u, v, 10, true, "wave")
	out = append(out, hold(out[len(out)-1].arm, 12, "wave")...)
	return append(out, g.reach(u, v, 10, false, "wave")...)
}

// remove takes a casualty off the table (never the last three disks).
func (g *Game) remove() []planned {
	s := g.Scene
	ids := g.movable()
	if len(ids) < 4 {
		return g.reinforce()
	}
	d := s.disks[ids[g.rng.IntN(len(ids))]]
	u, v := g.pixelOf(d.x, d.y, d.top())
	out := g.reach(u, v, 8, true, "remove")
	step := hold(out[len(out)-1].arm, 3, "remove")
	step[0].change = func() {
		g.dropTokensOn(d)
		for i := range s.disks {
			if s.disks[i].id == d.id {
				s.disks = append(s.disks[:i], s.disks[i+1:]...)
				return
			}
		}
	}
	out = append(out, step...)
	return append(out, g.reach(u, v, 8, false, "remove")...)
}

// reinforce lays a new disk on a free spot.
func (g *Game) reinforce() []planned {
	s := g.Scene
	if len(s.disks) >= s.spec.disks[1]+2 {
		return g.move()
	}
	for range 30 {
		d := s.newDisk(g.rng, 1)
		if d.kind == models.KindTerrain || !g.free(d.x, d.y, d.r, -1) {
			continue
		}
		g.nextDisk++
		d.id = fmt.Sprintf("d%d", g.nextDisk)
		u, v := g.pixelOf(d.x, d.y, d.top())
		out := g.reach(u, v, 8, true, "reinforce")
		step := hold(out[len(out)-1].arm, 3, "reinforce")
		step[0].change = func() {
			g.adopt(&d)
			s.disks = append(s.disks, d)
		}
		out = append(out, step...)
		return append(out, g.reach(u, v, 8, false, "reinforce")...)
	}
	return g.wave()
}

// bump knocks the camera: it turns about its centre by 0.5 to 1.5
// degrees, shaking through two intermediate poses.
func (g *Game) bump() []planned {
	s := g.Scene
	ax := [3]float64{g.rng.NormFloat64(), g.rng.NormFloat64(), g.rng.NormFloat64()}
	ax = scale(ax, (0.5+g.rng.Float64())*math.Pi/180/norm(ax))
	start := s.Pose
	var out []planned
	for _, f := range []float64{1.6, 0.7, 1} {
		w := calibration.Vec3{ax[0] * f, ax[1] * f, ax[2] * f}
		out = append(out, planned{moving: true, action: "bump", change: func() { s.Pose = turned(start, w) }})
	}
	return out
}

// turned returns the pose of the camera turned by rotation vector w
// (camera frame) about its own centre.
func turned(p calibration.Pose, w calibration.Vec3) calibration.Pose {
	c := p.Centre()
	r := calibration.Rodrigues(w).Mul(p.R)
	rc := r.MulVec(c)
	return calibration.Pose{R: r, T: calibration.Vec3{-rc[0], -rc[1], -rc[2]}}
}

// drawArm paints the arm over the frame and returns the box it covers.
func (g *Game) drawArm(a *arm) image.Rectangle {
	w, h := g.opt.Width, g.opt.Height
	hand := 1.25 * a.hw
	box := image.Rect(int(math.Min(a.ex, a.tx)-hand), int(math.Min(a.ey, a.ty)-hand),
		int(math.Max(a.ex, a.tx)+hand)+1, int(math.Max(a.ey, a.ty)+hand)+1).Intersect(image.Rect(0, 0, w, h))
	skin := rgb{0.86, 0.64, 0.5}
	dx, dy := a.tx-a.ex, a.ty-a.ey
	l2 := dx*dx + dy*dy
	drawn := image.Rectangle{}
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			px, py := float64(x), float64(y)
			t := 0.0
			if l2 > 0 {
				t = math.Max(0, math.Min(1, ((px-a.ex)*dx+(py-a.ey)*dy)/l2))
			}
			dist := math.Hypot(px-a.ex-t*dx, py-a.ey-t*dy)
			col := a.sleeve
			width := a.hw
			if dh := math.Hypot(px-a.tx, py-a.ty); dh < hand {
				dist, width, col = dh, hand, skin
			} else if l := math.Sqrt(l2) * (1 - t); l < 3*a.hw {
				col = skin
			}
			if dist >= width {
				continue
			}
			shade := 0.6 + 0.4*math.Sqrt(1-(dist/width)*(dist/width))
			c := col.scale(shade)
			i := g.buf.PixOffset(x, y)
			q := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v*255))) }
			g.buf.Pix[i], g.buf.Pix[i+1], g.buf.Pix[i+2] = q(c.R), q(c.G), q(c.B)
			drawn = drawn.Union(image.Rect(x, y, x+1, y+1))
		}
	}
	return drawn
}
