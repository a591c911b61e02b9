package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"tableref/calibration"
	"tableref/models"
)

// Tier is a difficulty level of the rendered scenes.
type Tier string

// The tiers, from a tidy table under even light to a crowded one seen at
// a slant through a cheap lens.
const (
	Easy   Tier = "easy"
	Medium Tier = "medium"
	Hard   Tier = "hard"
)

// Tiers lists the tiers in order.
var Tiers = []Tier{Easy, Medium, Hard}

// ParseTier returns the tier named s.
func ParseTier(s string) (Tier, error) {
	for _, t := range Tiers {
		if string(t) == s {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown tier %q: want easy, medium or hard", s)
}

// tierSpec holds what a tier varies.
type tierSpec struct {
	disks       [2]int     // how many disks, min and max
	tokens      [2]int     // how many tokens
	maxLevel    int        // highest stacking level (0: no overlaps)
	overlapProb float64    // chance that a disk is placed over another
	tilt        float64    // largest tilt from vertical, degrees
	k1          [2]float64 // radial distortion range
	noise       float64    // sensor noise, standard deviation in 8-bit levels
	blur        float64    // Gaussian blur sigma, pixels
	jpeg        int        // JPEG quality
	unevenLight float64    // strength of the light's unevenness
}

var tierSpecs = map[Tier]tierSpec{
	Easy:   {disks: [2]int{5, 8}, tokens: [2]int{2, 4}, maxLevel: 0, overlapProb: 0, tilt: 10, noise: 1.5, blur: 0.5, jpeg: 95, unevenLight: 0.1},
	Medium: {disks: [2]int{9, 14}, tokens: [2]int{4, 8}, maxLevel: 1, overlapProb: 0.35, tilt: 25, k1: [2]float64{-0.08, 0}, noise: 3, blur: 0.8, jpeg: 85, unevenLight: 0.25},
	Hard:   {disks: [2]int{14, 20}, tokens: [2]int{8, 14}, maxLevel: 2, overlapProb: 0.6, tilt: 35, k1: [2]float64{-0.2, -0.05}, noise: 5, blur: 1.2, jpeg: 70, unevenLight: 0.45},
}

// Options set the size of the rendered frames; the zero value renders
// 1920x1080.
type Options struct {
	Width, Height int
	// Board is the calibration board lying on the table in the board
	// view; zero: 9x6 inner corners (10x7 squares) of 30 mm.
	Board calibration.Board
	// Disks, when not zero, is how many disks to lay instead of the
	// tier's number (as many as fit in the view).
	Disks int
	// Lamp, when not zero, is the light's height above the table's
	// horizon in degrees (5 to 90) instead of the tier's 45-80: a lamp
	// low beside the table, whose shadows run long (a stack three disks
	// high casts one 1 cm long at 30 degrees). The exposure is set as a
	// camera's automatic exposure would: the lit table as bright as
	// under a light 60 degrees up.
	Lamp float64
}

// CheckLamp reports whether deg is a lamp's height Options.Lamp takes: 0
// (the tier's light) or 5 to 90 degrees.
func CheckLamp(deg float64) error {
	if deg != 0 && !(deg >= 5 && deg <= 90) {
		return fmt.Errorf("lamp %g degrees up: want 5 to 90", deg)
	}
	return nil
}

func (o Options) withDefaults() Options {
	if o.Width == 0 || o.Height == 0 {
		o.Width, o.Height = 1920, 1080
	}
	if o.Board == (calibration.Board{}) {
		o.Board = calibration.Board{Cols: 9, Rows: 6, SquareMM: 30}
	}
	return o
}

// Thickness is the thickness of a disk (cm); TokenThickness a token's.
const (
	Thickness      = 0.2
	TokenThickness = 0.15
)

// Scene is one synthetic table: camera, pieces, light. Render it with
// Render and RenderBoard; its ground truth is Truth.
type Scene struct {
	Seed uint64
	Tier Tier
	// Camera is the true camera, Pose the true table pose (table points
	// (x, y, -height) in cm to camera coordinates).
	Camera calibration.Camera
	Pose   calibration.Pose
	// Height is the camera's height above the table and Tilt its angle
	// from straight down, in cm and degrees.
	Height, Tilt float64
	// Board is the calibration board of the board view; its first inner
	// corner is the table frame's origin.
	Board calibration.Board
	// Centre is the table point the camera looks at.
	Centre models.TablePoint
	// Truth is the ground truth of Render's image.
	Truth models.Layout

	spec   tierSpec
	disks  []disk
	tokens []token
	light  light
	table  tableLook
}

// Generate builds the scene of the given seed and tier. The same seed,
// tier and options always give the same scene and the same images.
func Generate(seed uint64, tier Tier, opt Options) (*Scene, error) {
	spec, ok := tierSpecs[tier]
	if !ok {
		return nil, fmt.Errorf("unknown tier %q: want easy, medium or hard", tier)
	}
	opt = opt.withDefaults()
	if opt.Width < 64 || opt.Height < 64 || opt.Width > 8192 || opt.Height > 8192 {
		return nil, fmt.Errorf("frame size %dx%d: want 64 to 8192 pixels each way", opt.Width, opt.Height)
	}
	if err := opt.Board.Validate(); err != nil {
		return nil, err
	}
	if opt.Disks < 0 || opt.Disks > 200 {
		return nil, fmt.Errorf("%d disks: want 0 (the tier's number) to 200", opt.Disks)
	}
	if opt.Disks > 0 {
		spec.disks = [2]int{opt.Disks, opt.Disks}
	}
	if err := CheckLamp(opt.Lamp); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(tier))*0x9e3779b97f4a7c15))
	s := &Scene{Seed: seed, Tier: tier, Board: opt.Board, spec: spec}
	s.placeCamera(rng, opt.Width, opt.Height)
	s.light = newLight(rng, spec)
	if opt.Lamp != 0 {
		s.light = s.light.raisedTo(opt.Lamp)
	}
	s.table = newTableLook(rng)
	s.placeDisks(rng)
	s.dropTokens(rng)
	s.Truth = s.truth()
	return s, nil
}

// placeCamera picks the camera's height, tilt, yaw, lens and aim.
func (s *Scene) placeCamera(rng *rand.Rand, w, h int) {
	s.Height = 60 + 60*rng.Float64()
	s.Tilt = s.spec.tilt * math.Sqrt(rng.Float64())
	yaw := 2 * math.Pi * rng.Float64()
	hfov := 60 + 15*rng.Float64()
	cam := calibration.IdealCamera(w, h, hfov)
	cam.CX += (rng.Float64() - 0.5) * 0.02 * float64(w)
	cam.CY += (rng.Float64() - 0.5) * 0.02 * float64(h)
	cam.K1 = s.spec.k1[0] + (s.spec.k1[1]-s.spec.k1[0])*rng.Float64()
	if cam.K1 != 0 {
		cam.K2 = -0.2 * cam.K1 * rng.Float64()
	}
	s.Camera = cam
	// The board's centre is the aim, a little off so the board is not
	// always in the middle of the frame.
	bw, bh := float64(s.Board.Cols-1)*s.Board.SquareMM/10, float64(s.Board.Rows-1)*s.Board.SquareMM/10
	s.Centre = models.TablePoint{X: models.Centimetres(bw/2 + 8*(rng.Float64()-0.5)), Y: models.Centimetres(bh/2 + 8*(rng.Float64()-0.5))}
	t := s.Tilt * math.Pi / 180
	back := s.Height * math.Tan(t)
	eye := [3]float64{float64(s.Centre.X) - back*math.Cos(yaw), float64(s.Centre.Y) - back*math.Sin(yaw), -s.Height}
	s.Pose = lookAt(eye, [3]float64{float64(s.Centre.X), float64(s.Centre.Y), 0}, yaw)
}

// lookAt returns the pose of a camera at eye looking at target, with the
// image's "down" pointing back toward the camera (the horizontal direction
// yaw + 180 degrees), as a person at the table would hold it.
func lookAt(eye, target [3]float64, yaw float64) calibration.Pose {
	f := sub(target, eye)
	f = scale(f, 1/norm(f))
	down := [3]float64{-math.Cos(yaw), -math.Sin(yaw), 0}
	right := cross(down, f)
	right = scale(right, 1/norm(right))
	down = cross(f, right)
	r := calibration.Mat3{right, down, f}
	t := r.MulVec(calibration.Vec3(eye))
	return calibration.Pose{R: r, T: calibration.Vec3{-t[0], -t[1], -t[2]}}
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func scale(a [3]float64, k float64) [3]float64 {
	return [3]float64{a[0] * k, a[1] * k, a[2] * k}
}
func norm(a [3]float64) float64 { return math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2]) }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Project returns the pixel where the scene's camera sees table point p
// raised height cm, and false when it is behind the camera.
func (s *Scene) Project(p models.TablePoint, height float64) (calibration.Pixel, bool) {
	return s.Camera.Project(s.Pose.ToCamera(calibration.Vec3{float64(p.X), float64(p.Y), -height}))
}

// TrueCalibration returns the exact calibration of the scene's camera,
// as a perfect calibration would find it.
func (s *Scene) TrueCalibration() (*calibration.Calibration, error) {
	var px []calibration.Pixel
	corners := s.Board.Corners()
	for _, c := range corners {
		p, _ := s.Project(c, 0)
		px = append(px, p)
	}
	return calibration.FromBoard(calibration.Lens{Camera: s.Camera, Source: calibration.SourceSynthetic}, s.Board, px)
}
