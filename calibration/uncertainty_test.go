package calibration

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestUncertaintyMatchesMonteCarlo: the reported uncertainty is what
// repeated calibrations show. Board corners and the measured point get
// the same pixel noise; the spread of the measured table point over many
// noisy calibrations is compared with the mean reported figure, at the
// frame's centre and at the worst of its corners. The pixel part once
// took the radial PlaneRMSPx as each axis's error: 0.59 mm reported at
// the centre for 0.43 mm measured.
func TestUncertaintyMatchesMonteCarlo(t *testing.T) {
	board := Board{Cols: 9, Rows: 6, SquareMM: 30}
	clean := project(t, testCamera, lookAt(Vec3{30, -25, -90}, Vec3{12, 8, 0}), board.Corners())
	lens := Lens{Camera: testCamera, Source: SourceChessboard, RMSPx: 0.31, Views: 12}
	truth, err := FromBoard(lens, board, clean)
	if err != nil {
		t.Fatal(err)
	}
	const sigma, n = 0.3, 300 // px on each axis, calibrations
	w, h := float64(testCamera.Width), float64(testCamera.Height)
	centre := []Pixel{{w / 2, h / 2}}
	corners := []Pixel{{0.05 * w, 0.05 * h}, {0.95 * w, 0.05 * h}, {0.05 * w, 0.95 * h}, {0.95 * w, 0.95 * h}}
	rng := rand.New(rand.NewPCG(7, 9))
	noise := func(p Pixel) Pixel { return Pixel{p.U + sigma*rng.NormFloat64(), p.V + sigma*rng.NormFloat64()} }
	var reported Uncertainty
	sumSq := make([]float64, 1+len(corners))
	for range n {
		noisy := make([]Pixel, len(clean))
		for i, p := range clean {
			noisy[i] = noise(p)
		}
		c, err := FromBoard(lens, board, noisy)
		if err != nil {
			t.Fatal(err)
		}
		reported.CentreMM += c.Quality.Uncertainty.CentreMM / n
		reported.CornerMM += c.Quality.Uncertainty.CornerMM / n
		for i, p := range append(centre, corners...) {
			want, err1 := truth.TableFromImage(p.U, p.V, 0)
			q := noise(p)
			got, err2 := c.TableFromImage(q.U, q.V, 0)
			if err1 != nil || err2 != nil {
				t.Fatalf("pixel %v: %v, %v", p, err1, err2)
			}
			sumSq[i] += sq(got.X-want.X) + sq(got.Y-want.Y)
		}
	}
	mm := func(i int) float64 { return 10 * math.Sqrt(sumSq[i]/n) }
	worstCorner := 0.0
	for i := range corners {
		worstCorner = max(worstCorner, mm(1+i))
	}
	for _, c := range []struct {
		where              string
		reported, measured float64
	}{
		{"the centre", reported.CentreMM, mm(0)},
		{"the worst corner", reported.CornerMM, worstCorner},
	} {
		if r := c.reported / c.measured; r < 0.85 || r > 1.15 {
			t.Errorf("at %s: got %.3f mm reported, %.3f mm measured over %d calibrations; want within 15 %%", c.where, c.reported, c.measured, n)
		}
	}
}
