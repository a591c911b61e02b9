package calibration

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"tableref/models"
)

// lookAt returns the pose of a camera at eye (table frame, cm, z < 0 is
// above the table) looking at target on the table, rolled so that the
// table's y axis points roughly down the image.
func lookAt(eye, target Vec3) Pose {
	fwd := target.sub(eye)
	fwd = fwd.scale(1 / fwd.norm())
	down := Vec3{0, 1, 0}
	right := down.cross(fwd)
	if right.norm() < 1e-9 {
		right = Vec3{1, 0, 0}
	}
	right = right.scale(1 / right.norm())
	down = fwd.cross(right)
	r := Mat3{right, down, fwd} // rows: camera axes in table coordinates
	return Pose{R: r, T: r.MulVec(eye).scale(-1)}
}

var testCamera = Camera{Width: 1280, Height: 720,
	Intrinsics: Intrinsics{FX: 1000, FY: 1002, CX: 645, CY: 357},
	Distortion: Distortion{K1: -0.12, K2: 0.05, P1: 0.001, P2: -0.0005, K3: -0.01}}

// project returns where the test camera in pose p sees table points.
func project(t testing.TB, cam Camera, p Pose, pts []models.TablePoint) []Pixel {
	t.Helper()
	out := make([]Pixel, len(pts))
	for i, q := range pts {
		px, ok := cam.Project(p.ToCamera(Vec3{float64(q.X), float64(q.Y), 0}))
		if !ok {
			t.Fatalf("point %v is behind the camera", q)
		}
		out[i] = px
	}
	return out
}

func TestDistortionRoundTrip(t *testing.T) {
	for _, d := range []Distortion{{}, testCamera.Distortion, {K1: 0.2, K2: -0.1}} {
		for _, p := range [][2]float64{{0, 0}, {0.3, -0.2}, {-0.55, 0.31}, {0.01, 0.4}} {
			xd, yd := d.Distort(p[0], p[1])
			x, y := d.Undistort(xd, yd)
			if math.Hypot(x-p[0], y-p[1]) > 1e-10 {
				t.Errorf("%+v: undistort(distort(%v)) = (%g, %g)", d, p, x, y)
			}
		}
	}
}

func TestRodriguesRoundTrip(t *testing.T) {
	for _, w := range []Vec3{{0, 0, 0}, {0.1, -0.2, 0.3}, {2.5, 0.3, -0.4}, {0, 0, 3.1}} {
		got := RotationVector(Rodrigues(w))
		if got.sub(w).norm() > 1e-9 {
			t.Errorf("RotationVector(Rodrigues(%v)): got %v", w, got)
		}
	}
}

func TestFitHomographyRecoversAKnownOne(t *testing.T) {
	h := Mat3{{1.2, 0.1, 30}, {-0.05, 0.9, 12}, {0.0004, -0.0002, 1}}
	var src, dst []point2
	for _, p := range [][2]float64{{0, 0}, {100, 0}, {0, 80}, {120, 90}, {50, 40}, {10, 70}} {
		x, y, _ := h.Apply(p[0], p[1])
		src = append(src, point2{p[0], p[1]})
		dst = append(dst, point2{x, y})
	}
	g, err := fitHomography(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range src {
		x1, y1, _ := h.Apply(p.X, p.Y)
		x2, y2, _ := g.Apply(p.X, p.Y)
		if math.Hypot(x1-x2, y1-y2) > 1e-8 {
			t.Errorf("at %v: got (%g, %g), want (%g, %g)", p, x2, y2, x1, y1)
		}
	}
}

func TestFitHomographyRejectsDegeneratePoints(t *testing.T) {
	cases := []struct {
		name     string
		src, dst []point2
	}{
		{"three points", []point2{{0, 0}, {1, 0}, {0, 1}}, []point2{{0, 0}, {1, 0}, {0, 1}}},
		{"collinear points", []point2{{0, 0}, {1, 1}, {2, 2}, {3, 3}}, []point2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},
		{"one point repeated", []point2{{1, 1}, {1, 1}, {1, 1}, {1, 1}}, []point2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},
		{"lengths differ", []point2{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, []point2{{0, 0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := fitHomography(c.src, c.dst); !errors.Is(err, ErrDegenerate) {
				t.Errorf("got %v, want ErrDegenerate", err)
			}
		})
	}
}

// A board seen through a known camera gives back the table: every table
// point, on the table and raised, maps to the pixel the camera sees it at
// and back.
func TestFromBoardRecoversTheTable(t *testing.T) {
	board := Board{Cols: 9, Rows: 6, SquareMM: 30}
	pose := lookAt(Vec3{30, -25, -90}, Vec3{12, 8, 0})
	corners := project(t, testCamera, pose, board.Corners())
	c, err := FromBoard(Lens{Camera: testCamera, Source: SourceSynthetic}, board, corners)
	if err != nil {
		t.Fatal(err)
	}
	if c.Quality.PlaneRMSPx > 1e-6 {
		t.Errorf("plane RMS: got %g px, want 0 for exact corners", c.Quality.PlaneRMSPx)
	}
	if math.Abs(c.Quality.Scale-1) > 1e-6 {
		t.Errorf("scale: got %g, want 1", c.Quality.Scale)
	}
	if got := float64(c.Plane.EyeHeight); math.Abs(got-90) > 1e-6 {
		t.Errorf("camera height: got %g cm, want 90", got)
	}
	for _, h := range []models.Centimetres{0, 0.2, 0.4, 5} {
		for _, q := range []models.TablePoint{{X: 0, Y: 0}, {X: -20, Y: 30}, {X: 45, Y: -10}, {X: 50, Y: 40}} {
			cp := pose.ToCamera(Vec3{float64(q.X), float64(q.Y), -float64(h)})
			px, _ := testCamera.Project(cp)
			got, err := c.TableFromImage(px.U, px.V, h)
			if err != nil {
				t.Fatal(err)
			}
			if d := dist(got, q); d > 1e-6 {
				t.Errorf("TableFromImage(%v, height %g): got %v, want %v", px, float64(h), got, q)
			}
			back, err := c.ImageFromTable(q, h)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Hypot(back.U-px.U, back.V-px.V); d > 1e-6 {
				t.Errorf("ImageFromTable(%v, height %g): got %v, want %v", q, float64(h), back, px)
			}
		}
	}
}

// With noisy corners the fit stays within the expected uncertainty and
// the uncertainty grows from the centre to the corners.
func TestFromBoardWithNoisyCorners(t *testing.T) {
	board := Board{Cols: 9, Rows: 6, SquareMM: 30}
	pose := lookAt(Vec3{20, -30, -80}, Vec3{12, 8, 0})
	rng := rand.New(rand.NewPCG(1, 2))
	corners := project(t, testCamera, pose, board.Corners())
	for i := range corners {
		corners[i].U += 0.2 * rng.NormFloat64()
		corners[i].V += 0.2 * rng.NormFloat64()
	}
	c, err := FromBoard(Lens{Camera: testCamera, Source: SourceSynthetic}, board, corners)
	if err != nil {
		t.Fatal(err)
	}
	u := c.Quality.Uncertainty
	if !(u.CentreMM > 0 && u.CentreMM <= u.EdgeMM && u.EdgeMM <= u.CornerMM) {
		t.Errorf("uncertainty: got centre %.3f, edge %.3f, corner %.3f mm, want 0 < centre <= edge <= corner", u.CentreMM, u.EdgeMM, u.CornerMM)
	}
	if q := c.Quality; q.PlaneRMSPx < 0.1 || q.PlaneRMSPx > 0.3 || math.Abs(q.Scale-1) > 0.005 {
		t.Errorf("quality: got plane RMS %.3f px (want about 0.2), scale %.4f (want about 1)", q.PlaneRMSPx, q.Scale)
	}
}

// Four clicked points on an uncalibrated camera without distortion: the
// estimated focal length is close and the four points map exactly.
func TestFromPointsEstimatesTheLens(t *testing.T) {
	cam := Camera{Width: 1920, Height: 1080, Intrinsics: Intrinsics{FX: 1400, FY: 1400, CX: 960, CY: 540}}
	pose := lookAt(Vec3{0, -50, -85}, Vec3{0, 20, 0})
	table := []models.TablePoint{{X: -40, Y: 0}, {X: 40, Y: 0}, {X: 40, Y: 45}, {X: -40, Y: 45}}
	img := project(t, cam, pose, table)
	c, err := FromPoints(nil, 1920, 1080, img, table)
	if err != nil {
		t.Fatal(err)
	}
	if c.Lens.Source != SourceEstimated || math.Abs(c.Lens.FX-1400) > 30 {
		t.Errorf("lens: got %s with fx %.1f, want estimated with fx near 1400", c.Lens.Source, c.Lens.FX)
	}
	for i, p := range img {
		got, err := c.TableFromImage(p.U, p.V, 0)
		if err != nil || dist(got, table[i]) > 1e-6 {
			t.Errorf("point %d: got %v (%v), want %v", i, got, err, table[i])
		}
	}
	// Heights use the estimated camera position: 2 mm up within 0.1 mm.
	cp := pose.ToCamera(Vec3{10, 20, -0.2})
	px, _ := cam.Project(cp)
	got, err := c.TableFromImage(px.U, px.V, 0.2)
	if err != nil || dist(got, models.TablePoint{X: 10, Y: 20}) > 0.01 {
		t.Errorf("raised point: got %v (%v), want (10, 20)", got, err)
	}
}

func TestFromPointsRejectsBadInput(t *testing.T) {
	sq := []models.TablePoint{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}, {X: 0, Y: 10}}
	px := []Pixel{{100, 100}, {300, 100}, {300, 300}, {100, 300}}
	lens := Lens{Camera: testCamera, Source: SourceSynthetic}
	cases := []struct {
		name  string
		lens  *Lens
		w, h  int
		img   []Pixel
		table []models.TablePoint
		want  error
	}{
		{"three points", nil, 640, 480, px[:3], sq[:3], ErrDegenerate},
		{"counts differ", nil, 640, 480, px, sq[:3], ErrDegenerate},
		{"collinear table points", nil, 640, 480, px, []models.TablePoint{{X: 0}, {X: 1}, {X: 2}, {X: 3}}, ErrDegenerate},
		{"no frame size", nil, 0, 0, px, sq, ErrCamera},
		{"lens for another frame size", &lens, 640, 480, px, sq, ErrMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := FromPoints(c.lens, c.w, c.h, c.img, c.table); !errors.Is(err, c.want) {
				t.Errorf("got %v, want %v", err, c.want)
			}
		})
	}
}

func TestPixelsAboveTheHorizonAreOffTheTable(t *testing.T) {
	board := Board{Cols: 9, Rows: 6, SquareMM: 30}
	// A grazing view from the side of negative y, rolled so that the table's
	// y axis runs down the image: the bottom of the frame sees above the
	// horizon.
	pose := lookAt(Vec3{0, -150, -40}, Vec3{10, 10, 0})
	cam := Camera{Width: 1280, Height: 720, Intrinsics: Intrinsics{FX: 500, FY: 500, CX: 640, CY: 360}}
	c, err := FromBoard(Lens{Camera: cam, Source: SourceSynthetic}, board, project(t, cam, pose, board.Corners()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TableFromImage(640, 719, 0); !errors.Is(err, ErrOffTable) {
		t.Errorf("bottom of the frame: got %v, want ErrOffTable", err)
	}
	if _, err := c.TableFromImage(640, 100, 50); !errors.Is(err, ErrOffTable) {
		t.Errorf("height above the camera: got %v, want ErrOffTable", err)
	}
}
