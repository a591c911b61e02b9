package synth

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"

	"tableref/calibration"
	"tableref/models"
)

// Board9Size is the number of squares along a side of the 9x9 battle
// game's board; Board9Squares the number of squares.
const (
	Board9Size    = 9
	Board9Squares = Board9Size * Board9Size
)

// Board9Cells is what stands on each square of a 9x9 board, indexed like
// the referee's squares (file a-i = 0-8 plus 9 times the row 1-9 = 0-8):
// 0 empty, 1 a first-player piece, 2 a second-player piece (the values of
// battle9.Occupant; synth does not import the referee).
type Board9Cells [Board9Squares]uint8

// Board9Options set a rendered 9x9 board: the frame size (zero: 1920x1080)
// and how the camera sits. Turn is where the camera stands, in quarter
// turns counter-clockwise from behind the first player's edge (0: row 1 is
// at the bottom of the frame, file a on the left; 2: seen from the second
// player's side).
type Board9Options struct {
	Width, Height int
	Turn          int
}

// Board9Scene is one 9x9 board on a table under a camera and a light: the
// same board, camera, light and table for every frame rendered from it,
// only the pieces change. Squares are Square cm wide; the border around
// the grid (a frame band of FrameWidth and a plain margin) is Border cm
// wide; the board is Thickness9 cm thick.
type Board9Scene struct {
	Seed   uint64
	Tier   Tier
	Turn   int
	Camera calibration.Camera
	Pose   calibration.Pose
	// Height and Tilt: the camera's height above the table (cm) and its
	// angle from straight down (degrees).
	Height, Tilt float64
	Square       float64
	Border       float64
	FrameWidth   float64
	Thickness9   float64
	// First and Second are the armies' colours (8-bit RGB), Board the
	// board's.
	First, Second, Board [3]uint8

	sc        *Scene
	originX   float64 // table x of the grid's a1 corner
	originY   float64 // table y of the grid's a1 corner (rows grow toward -y)
	boardArt  art
	boardSide rgb
	armies    [2]rgb
	pieceR    float64
	pieceH    float64
	chits     []token
}

// army colour pairs and board colours the scenes draw from.
var (
	armyPairs = [][2]rgb{
		{{0.90, 0.86, 0.74}, {0.10, 0.09, 0.09}}, // ivory and black
		{{0.92, 0.92, 0.90}, {0.70, 0.10, 0.10}}, // white and red
		{{0.15, 0.30, 0.75}, {0.75, 0.12, 0.10}}, // blue and red
		{{0.90, 0.75, 0.15}, {0.12, 0.45, 0.20}}, // yellow and green
		{{0.88, 0.80, 0.62}, {0.30, 0.18, 0.10}}, // cream and dark brown
	}
	boardColours = []rgb{
		{0.78, 0.62, 0.42}, // light wood
		{0.62, 0.45, 0.28}, // darker wood
		{0.72, 0.72, 0.69}, // grey card
		{0.40, 0.58, 0.40}, // green card
		{0.90, 0.86, 0.74}, // cream paper
	}
)

// NewBoard9 builds the 9x9 board scene of the given seed and tier: the
// tier sets the camera's largest tilt, the lens distortion, the noise,
// blur and JPEG quality, the unevenness of the light, and (medium, hard)
// a few chits lying beside the board or across its border.
func NewBoard9(seed uint64, tier Tier, opt Board9Options) (*Board9Scene, error) {
	spec, ok := tierSpecs[tier]
	if !ok {
		return nil, fmt.Errorf("unknown tier %q: want easy, medium or hard", tier)
	}
	if opt.Width == 0 || opt.Height == 0 {
		opt.Width, opt.Height = 1920, 1080
	}
	if opt.Width < 160 || opt.Height < 120 || opt.Width > 8192 || opt.Height > 8192 {
		return nil, fmt.Errorf("frame size %dx%d: want 160x120 to 8192x8192 pixels", opt.Width, opt.Height)
	}
	rng := rand.New(rand.NewPCG(seed, 0xb0a4d9+uint64(len(tier))))
	b := &Board9Scene{Seed: seed, Tier: tier, Turn: ((opt.Turn % 4) + 4) % 4}
	b.sc = &Scene{Seed: seed, Tier: tier, spec: spec}
	b.sc.light = newLight(rng, spec)
	b.sc.table = newTableLook(rng)
	b.pickBoard(rng)
	if err := b.placeCamera(rng, opt.Width, opt.Height); err != nil {
		return nil, err
	}
	if tier != Easy {
		b.dropChits(rng, 1+rng.IntN(map[Tier]int{Medium: 2, Hard: 4}[tier]))
	}
	return b, nil
}

// pickBoard chooses the board's size and look and the armies' colours,
// keeping both armies well apart from the board's colour.
func (b *Board9Scene) pickBoard(rng *rand.Rand) {
	b.Square = 3.5 + rng.Float64()
	b.FrameWidth = b.Square * (0.2 + 0.1*rng.Float64())
	b.Border = b.FrameWidth + b.Square*(0.2+0.1*rng.Float64())
	b.Thickness9 = 0.3 + 0.9*rng.Float64()
	b.pieceR = b.Square * (0.3 + 0.06*rng.Float64())
	b.pieceH = 0.4 + 0.5*rng.Float64()
	for {
		board := boardColours[rng.IntN(len(boardColours))]
		pair := armyPairs[rng.IntN(len(armyPairs))]
		if rng.IntN(2) == 1 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		if colourDistance(board, pair[0]) > 0.3 && colourDistance(board, pair[1]) > 0.3 {
			b.armies = pair
			b.boardArt = boardArt(board, b.Square, b.FrameWidth, rng)
			b.boardSide = board.scale(0.6)
			break
		}
	}
	b.First, b.Second, b.Board = rgb8(b.armies[0]), rgb8(b.armies[1]), rgb8(b.boardArt.bg)
	b.originX, b.originY = -4.5*b.Square, 4.5*b.Square
}

func colourDistance(a, c rgb) float64 {
	return math.Sqrt((a.R-c.R)*(a.R-c.R) + (a.G-c.G)*(a.G-c.G) + (a.B-c.B)*(a.B-c.B))
}

func rgb8(c rgb) [3]uint8 {
	q := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v*255)))) }
	return [3]uint8{q(c.R), q(c.G), q(c.B)}
}

// boardArt is the board's printed face: a plain colour, a dark frame band
// at the edge and the ten by ten grid lines.
func boardArt(c rgb, sq, frame float64, rng *rand.Rand) art {
	ink := rgb{0.12, 0.1, 0.08}
	a := art{bg: c, bg2: c.scale(0.93), rim: hsvColour(rng.Float64(), 0.4, 0.15+0.15*rng.Float64()), rimW: frame}
	lw := sq * (0.03 + 0.02*rng.Float64())
	for k := 0; k <= Board9Size; k++ {
		p := (float64(k) - 4.5) * sq
		a.prims = append(a.prims,
			prim{kind: primRect, x: p, y: 0, a: lw / 2, b: 4.5*sq + lw/2, c: ink},
			prim{kind: primRect, x: 0, y: p, a: 4.5*sq + lw/2, b: lw / 2, c: ink})
	}
	return a
}

// placeCamera aims the camera at the board from the side Turn names,
// tilted up to the tier's largest tilt, and raises it until the whole
// board fills about two thirds of the frame.
func (b *Board9Scene) placeCamera(rng *rand.Rand, w, h int) error {
	s := b.sc
	b.Tilt = s.spec.tilt * math.Sqrt(rng.Float64())
	yaw := -math.Pi/2 + float64(b.Turn)*math.Pi/2 + (rng.Float64()-0.5)*80*math.Pi/180
	hfov := 55 + 15*rng.Float64()
	cam := calibration.IdealCamera(w, h, hfov)
	cam.CX += (rng.Float64() - 0.5) * 0.02 * float64(w)
	cam.CY += (rng.Float64() - 0.5) * 0.02 * float64(h)
	cam.K1 = s.spec.k1[0] + (s.spec.k1[1]-s.spec.k1[0])*rng.Float64()
	if cam.K1 != 0 {
		cam.K2 = -0.2 * cam.K1 * rng.Float64()
	}
	s.Camera, b.Camera = cam, cam
	half := 4.5*b.Square + b.Border
	aimX, aimY := (rng.Float64()-0.5)*0.15*half, (rng.Float64()-0.5)*0.15*half
	fill := 0.6 + 0.2*rng.Float64()
	s.Height = 80
	for range 30 {
		t := b.Tilt * math.Pi / 180
		back := s.Height * math.Tan(t)
		eye := [3]float64{aimX - back*math.Cos(yaw), aimY - back*math.Sin(yaw), -s.Height}
		s.Pose = lookAt(eye, [3]float64{aimX, aimY, 0}, yaw)
		u0, v0, u1, v1, ok := b.extent(half)
		if !ok {
			s.Height *= 1.3
			continue
		}
		k := math.Max((u1-u0)/float64(w), (v1-v0)/float64(h)) / fill
		inside := u0 > 0.03*float64(w) && v0 > 0.03*float64(h) && u1 < 0.97*float64(w) && v1 < 0.97*float64(h)
		if math.Abs(k-1) < 0.02 && inside {
			break
		}
		if k < 1 && !inside {
			k = 1.05
		}
		s.Height *= math.Max(0.7, math.Min(1.4, k))
	}
	if _, _, _, _, ok := b.extent(half); !ok {
		return fmt.Errorf("board9 scene %d: the camera does not see the whole board", b.Seed)
	}
	b.Height, b.Pose = s.Height, s.Pose
	return nil
}

// extent is the frame box of the board's outline.
func (b *Board9Scene) extent(half float64) (u0, v0, u1, v1 float64, ok bool) {
	u0, v0, u1, v1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		p, vis := b.sc.Project(models.TablePoint{X: cm(c[0] * half), Y: cm(c[1] * half)}, b.Thickness9)
		if !vis {
			return 0, 0, 0, 0, false
		}
		u0, v0, u1, v1 = math.Min(u0, p.U), math.Min(v0, p.V), math.Max(u1, p.U), math.Max(v1, p.V)
	}
	return u0, v0, u1, v1, true
}

// dropChits lays a few Diskwars chits beside the board, some across its
// border (a partial occlusion of its outline).
func (b *Board9Scene) dropChits(rng *rand.Rand, n int) {
	half := 4.5*b.Square + b.Border
	for i := 0; i < n; i++ {
		side := rng.IntN(4)
		along := (rng.Float64()*2 - 1) * half
		out := half + (rng.Float64()-0.3)*3
		x, y := along, out
		switch side {
		case 1:
			x, y = out, along
		case 2:
			x, y = along, -out
		case 3:
			x, y = -out, along
		}
		t := token{kind: "damage", shape: "square", x: x, y: y, a: 0.8, b: 0.8, angle: math.Pi * rng.Float64()}
		if math.Abs(x) < half+1.2 && math.Abs(y) < half+1.2 {
			t.base = b.Thickness9
		}
		t.art = newTokenArt(rng, t.kind)
		b.chits = append(b.chits, t)
	}
}

// Table returns the table point under board point (f, r), in squares from
// the grid's a1 corner (f along the files, r along the rows; the centre
// of square a1 is (0.5, 0.5)).
func (b *Board9Scene) Table(f, r float64) models.TablePoint {
	return models.TablePoint{X: cm(b.originX + f*b.Square), Y: cm(b.originY - r*b.Square)}
}

// GridPixel returns where the camera sees board point (f, r) on the
// board's face (see Table).
func (b *Board9Scene) GridPixel(f, r float64) (calibration.Pixel, bool) {
	return b.sc.Project(b.Table(f, r), b.Thickness9)
}

// Render returns the photograph of the board with the given pieces, as
// the tier's camera delivers it (light, blur, noise, JPEG). Frames with
// different numbers get different sensor noise; a piece always stands at
// the same spot of its square, so pieces that did not move look the same.
func (b *Board9Scene) Render(cells Board9Cells, frame uint64) (image.Image, error) {
	for sq, c := range cells {
		if c > 2 {
			return nil, fmt.Errorf("board9 cells: square %d holds %d: want 0 (empty), 1 or 2", sq, c)
		}
	}
	st := b.stage(cells)
	img := b.sc.develop(st.render(3), 100+frame)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: b.sc.spec.jpeg}); err != nil {
		return nil, fmt.Errorf("encoding JPEG: %w", err)
	}
	return jpeg.Decode(&buf)
}

// stage lays the board, its pieces and the chits out for the ray caster.
func (b *Board9Scene) stage(cells Board9Cells) *stage {
	s := b.sc
	st := &stage{sc: s}
	half := 4.5*b.Square + b.Border
	st.solids = append(st.solids, solid{x: 0, y: 0, a: half, b: half, cos: 1, hb: 0, ht: b.Thickness9,
		size: half, art: &b.boardArt, side: b.boardSide})
	for sq, c := range cells {
		if c == 0 {
			continue
		}
		st.solids = append(st.solids, b.piece(sq, int(c)-1))
	}
	for i := range b.chits {
		t := &b.chits[i]
		st.solids = append(st.solids, solid{x: t.x, y: t.y, a: t.a, b: t.b, cos: math.Cos(t.angle), sin: math.Sin(t.angle),
			hb: t.base, ht: t.top(), size: t.a, art: &t.art, side: t.art.bg.scale(0.7), isToken: true, tokenShape: t.shape})
	}
	st.tw = (s.Camera.Width + tileSize - 1) / tileSize
	st.th = (s.Camera.Height + tileSize - 1) / tileSize
	st.tiles = make([][]int, st.tw*st.th)
	for i := range st.solids {
		st.solids[i].box = st.bbox(&st.solids[i])
		bx := st.solids[i].box
		for ty := max(0, bx.Min.Y/tileSize); ty <= min(st.th-1, bx.Max.Y/tileSize); ty++ {
			for tx := max(0, bx.Min.X/tileSize); tx <= min(st.tw-1, bx.Max.X/tileSize); tx++ {
				st.tiles[ty*st.tw+tx] = append(st.tiles[ty*st.tw+tx], i)
			}
		}
	}
	return st
}

// piece is the round wooden piece of the given side on square sq: the
// army's colour with a printed emblem, set down a little off the square's
// centre (the same spot every frame).
func (b *Board9Scene) piece(sq, side int) solid {
	rng := rand.New(rand.NewPCG(b.Seed^0x9ece, uint64(sq)))
	f, r := float64(sq%Board9Size)+0.5, float64(sq/Board9Size)+0.5
	f += (rng.Float64() - 0.5) * 0.16
	r += (rng.Float64() - 0.5) * 0.16
	p := b.Table(f, r)
	col := b.armies[side].scale(0.94 + 0.08*rng.Float64())
	a := &art{bg: col, bg2: col.scale(0.9), rim: col.scale(0.75), rimW: 0.08 * b.pieceR, angle: 2 * math.Pi * rng.Float64()}
	mark := mix(col, rgb{0.5, 0.5, 0.5}, 0.45)
	for range 2 + rng.IntN(3) {
		a.prims = append(a.prims, prim{kind: primRect, x: (rng.Float64() - 0.5) * b.pieceR, y: (rng.Float64() - 0.5) * b.pieceR,
			a: 0.05*b.pieceR + 0.2*b.pieceR*rng.Float64(), b: 0.05 * b.pieceR, c: mark})
	}
	return solid{round: true, x: float64(p.X), y: float64(p.Y), a: b.pieceR, cos: 1, hb: b.Thickness9, ht: b.Thickness9 + b.pieceH,
		size: b.pieceR, art: a, side: col.scale(0.65)}
}
