package synth

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"tableref/calibration"
	"tableref/models"
)

var small = Options{Width: 640, Height: 360}

func TestSameSeedSameScene(t *testing.T) {
	a, err := Generate(3, Medium, small)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(3, Medium, small)
	ja, err := a.JPEG()
	if err != nil {
		t.Fatal(err)
	}
	jb, _ := b.JPEG()
	if !slices.Equal(ja, jb) {
		t.Errorf("two renders of seed 3 differ")
	}
	c, _ := Generate(4, Medium, small)
	if c.Height == a.Height && len(c.Truth.Disks) == len(a.Truth.Disks) && c.Truth.Disks[0].X == a.Truth.Disks[0].X {
		t.Errorf("seeds 3 and 4 gave the same scene")
	}
}

func TestScenesKeepToTheirTier(t *testing.T) {
	for _, tier := range Tiers {
		spec := tierSpecs[tier]
		for seed := range uint64(20) {
			s, err := Generate(seed, tier, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s.Height < 60 || s.Height > 120 || s.Tilt > spec.tilt {
				t.Errorf("%s seed %d: camera %.1f cm high, tilted %.1f degrees", tier, seed, s.Height, s.Tilt)
			}
			for i, d := range s.Truth.Disks {
				if d.Z > spec.maxLevel {
					t.Errorf("%s seed %d: %s at level %d, tier allows %d", tier, seed, d.ID, d.Z, spec.maxLevel)
				}
				for _, e := range s.Truth.Disks[:i] {
					overlap := math.Hypot(float64(d.X-e.X), float64(d.Y-e.Y)) < float64(d.R+e.R)
					if overlap && d.Z == e.Z {
						t.Errorf("%s seed %d: %s and %s overlap at the same level %d", tier, seed, d.ID, e.ID, d.Z)
					}
				}
				p := d.Pixel
				if p == nil || p.PX < 0 || p.PY < 0 || p.PX >= 1920 || p.PY >= 1080 {
					t.Errorf("%s seed %d: %s is out of view: %+v", tier, seed, d.ID, p)
				}
			}
			if _, err := models.Parse(mustMarshal(t, s.Truth)); err != nil {
				t.Errorf("%s seed %d: the truth is not a valid layout: %v", tier, seed, err)
			}
		}
	}
}

func mustMarshal(t *testing.T, l models.Layout) []byte {
	t.Helper()
	b, err := models.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The truth's pixels are where the renderer draws: the pixel at a disk's
// projected centre belongs to that disk's top face, not to the table.
func TestTruthPixelsSeeTheirDisks(t *testing.T) {
	s, err := Generate(11, Hard, small)
	if err != nil {
		t.Fatal(err)
	}
	st := s.stage(false)
	for i, d := range s.Truth.Disks {
		r := s.ray(d.Pixel.PX, d.Pixel.PY)
		h := st.trace(r, allSolids(st))
		if h.solid < 0 || h.side {
			t.Errorf("%s: the ray through its centre pixel hits %+v, want a top face", d.ID, h)
			continue
		}
		if h.solid != i && st.solids[h.solid].ht <= st.solids[i].ht {
			t.Errorf("%s: hidden by a lower piece %d", d.ID, h.solid)
		}
	}
}

func allSolids(st *stage) []int {
	var all []int
	for i := range st.solids {
		all = append(all, i)
	}
	return all
}

func TestTokenTouches(t *testing.T) {
	d := disk{id: "d1", x: 0, y: 0, r: 2}
	cases := []struct {
		name string
		tok  token
		want bool
	}{
		{"round token overlapping", token{shape: "round", x: 2.5, a: 0.6}, true},
		{"round token apart", token{shape: "round", x: 2.7, a: 0.6}, false},
		{"arrow pointing at the disk", token{shape: "long", x: 3.5, a: 1.6, b: 0.45}, true},
		{"arrow across, beside the disk", token{shape: "long", x: 2.6, a: 1.6, b: 0.45, angle: math.Pi / 2}, false},
		{"square corner on the rim", token{shape: "square", x: 2.5, y: 2.5, a: 0.8, b: 0.8}, false},
		{"square corner just inside", token{shape: "square", x: 2.1, y: 2.1, a: 0.8, b: 0.8}, true},
	}
	for _, c := range cases {
		if got := c.tok.touches(d); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// The board view calibrates the table plane to within 0.5 mm (p95) over a
// 90 cm table, with the lens known (issue 5, "Done when").
func TestBoardViewCalibratesThePlane(t *testing.T) {
	for _, tier := range Tiers {
		s, err := Generate(21, tier, Options{Width: 960, Height: 540})
		if err != nil {
			t.Fatal(err)
		}
		g := calibration.GrayFromImage(s.RenderBoard())
		corners, err := calibration.FindCorners(g, s.Board)
		if err != nil {
			t.Fatalf("%s: %v", tier, err)
		}
		cal, err := calibration.FromBoard(calibration.Lens{Camera: s.Camera, Source: calibration.SourceSynthetic}, s.Board, corners)
		if err != nil {
			t.Fatal(err)
		}
		errs := PlaneErrors(s, cal, 90, 2)
		p50, p95 := Percentile(errs, 50), Percentile(errs, 95)
		t.Logf("%s: %d points, p50 %.3f mm, p95 %.3f mm, camera %.0f cm tilt %.0f", tier, len(errs), p50, p95, s.Height, s.Tilt)
		if len(errs) < 100 || p95 > 0.5 {
			t.Errorf("%s: plane error p95 %.3f mm over %d points, want <= 0.5 mm", tier, p95, len(errs))
		}
	}
}

// BenchmarkRender measures a 1920x1080 photograph (ray casting, light,
// blur, noise, JPEG).
func BenchmarkRender(b *testing.B) {
	s, err := Generate(1, Hard, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.JPEG(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLampLightsFromLow: Options.Lamp moves the light down to the given
// height on the same side, keeps every piece and the camera where they
// were, exposes the lit table as under a light 60 degrees up, and refuses
// a lamp below 5 or above 90 degrees.
func TestLampLightsFromLow(t *testing.T) {
	plain, err := Generate(7, Hard, small)
	if err != nil {
		t.Fatal(err)
	}
	opt := small
	opt.Lamp = 25
	low, err := Generate(7, Hard, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain.Truth, low.Truth) || plain.Camera != low.Camera {
		t.Errorf("the lamp moved pieces or the camera")
	}
	if up := math.Asin(low.light.dir[2]) * 180 / math.Pi; math.Abs(up-25) > 1e-9 {
		t.Errorf("light %.3f degrees up, want 25", up)
	}
	az := func(l light) float64 { return math.Atan2(l.dir[1], l.dir[0]) }
	if math.Abs(az(plain.light)-az(low.light)) > 1e-9 {
		t.Errorf("the lamp moved round the table: azimuth %.3f, was %.3f", az(low.light), az(plain.light))
	}
	lit := func(l light) float64 { return (l.ambient + (1-l.ambient)*l.dir[2]) * l.cast.G }
	want := (plain.light.ambient + (1-plain.light.ambient)*math.Sin(math.Pi/3)) * plain.light.cast.G
	if got := lit(low.light); math.Abs(got-want) > 1e-9 {
		t.Errorf("lit table under the lamp %.4f, want %.4f (as under a light 60 degrees up)", got, want)
	}
	for _, bad := range []float64{4, 91, -30, math.NaN()} {
		opt.Lamp = bad
		if _, err := Generate(7, Hard, opt); err == nil {
			t.Errorf("lamp %g degrees up accepted", bad)
		}
	}
}
