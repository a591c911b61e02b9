package vision

import (
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// labelRegions measures regions as OpenCV's own statistics do: area, box
// and centroid of every label, for either connectivity, on masks from
// empty to full.
func TestLabelRegionsAgreesWithOpenCVStatistics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		w, h    int
		density float64
	}{
		{"empty", 40, 30, 0},
		{"full", 40, 30, 1.1},
		{"sparse", 97, 61, 0.2},
		{"half", 128, 80, 0.5},
		{"dense", 64, 64, 0.8},
	} {
		for _, conn := range []int{4, 8} {
			rng := rand.New(rand.NewPCG(uint64(tc.w), uint64(conn)))
			mask := gocv.NewMatWithSize(tc.h, tc.w, gocv.MatTypeCV8U)
			defer mask.Close()
			for y := range tc.h {
				for x := range tc.w {
					if rng.Float64() < tc.density {
						mask.SetUCharAt(y, x, 255)
					}
				}
			}
			want, stats, cents := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
			defer want.Close()
			defer stats.Close()
			defer cents.Close()
			n := gocv.ConnectedComponentsWithStatsWithParams(mask, &want, &stats, &cents, conn, gocv.MatTypeCV32S, gocv.CCL_DEFAULT)
			d := NewDetector(Options{})
			defer d.Close()
			labels, rs := d.regions.labelRegions(mask, conn)
			if len(rs) != n || len(labels) != tc.w*tc.h {
				t.Fatalf("%s/%d: %d regions, %d labels; OpenCV: %d regions of %d pixels", tc.name, conn, len(rs), len(labels), n, tc.w*tc.h)
			}
			for i := 1; i < n; i++ {
				r := rs[i]
				got := [5]int{r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0, r.area}
				var exp [5]int
				for k := range exp {
					exp[k] = int(stats.GetIntAt(i, k))
				}
				if got != exp {
					t.Errorf("%s/%d region %d: box and area %v, OpenCV %v", tc.name, conn, i, got, exp)
				}
				if math.Abs(r.cx-cents.GetDoubleAt(i, 0)) > 1e-9 || math.Abs(r.cy-cents.GetDoubleAt(i, 1)) > 1e-9 {
					t.Errorf("%s/%d region %d: centroid (%g, %g), OpenCV (%g, %g)", tc.name, conn, i, r.cx, r.cy, cents.GetDoubleAt(i, 0), cents.GetDoubleAt(i, 1))
				}
			}
		}
	}
}

// regionAxis gives the long axis of a drawn-out region, and none for a
// compact one.
func TestRegionAxis(t *testing.T) {
	const w, h = 80, 80
	for _, tc := range []struct {
		name         string
		length, wide float64
		deg          float64
		want         bool
	}{
		{"bar at 30°", 40, 10, 30, true},
		{"bar at -70°", 36, 12, -70, true},
		{"bar across", 31, 8.6, 90, true},
		{"square", 20, 20, 15, false},
		{"stubby", 20, 15, 40, false},
	} {
		labels := make([]int32, w*h)
		a := tc.deg * math.Pi / 180
		ax, ay := math.Cos(a), math.Sin(a)
		x0, y0, x1, y1 := w, h, 0, 0
		var sx, sy, n float64
		for y := range h {
			for x := range w {
				dx, dy := float64(x)-40, float64(y)-40
				if u, v := dx*ax+dy*ay, -dx*ay+dy*ax; math.Abs(u) <= tc.length/2 && math.Abs(v) <= tc.wide/2 {
					labels[y*w+x] = 3
					x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x+1), max(y1, y+1)
					sx, sy, n = sx+float64(x), sy+float64(y), n+1
				}
			}
		}
		got := regionAxis(labels, w, 3, x0, y0, x1-x0, y1-y0, sx/n, sy/n)
		if !tc.want {
			if got.len() != 0 {
				t.Errorf("%s: axis %v, want none", tc.name, got)
			}
			continue
		}
		// The axis up to its sign.
		if dot := math.Abs(got.X*ax + got.Y*ay); dot < math.Cos(2*math.Pi/180) {
			t.Errorf("%s: axis %v, want (%.3f, %.3f)", tc.name, got, ax, ay)
		}
	}
}
