package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
)

// plainDisk is a disk drawPlainTable drew: centre and radius in cm, and
// whether it was drawn with a rim band and a circle of art.
type plainDisk struct {
	x, y, r float64
}

// drawPlainTable draws, top-down at 15 pixels a centimetre on a 1920x1080
// frame, 8 to 19 disks of the catalogue's creature and spell sizes on a
// table of one colour, each drawn over those before it (so later ones lie
// on top): a flat disk of a random colour with a rim band of another
// (0.25 cm wide) and a circle of art of a third, 0.4 of its radius, off
// its centre; or, outlined, with a dark outline 2 pixels wide and nothing
// else. Blurred (sigma 1 pixel) with noise (3 levels). It is
// another renderer than synth's, with none of its art, light or lens: the
// detector is checked on disks it was not tuned on. It returns the frame,
// its calibration and the disks in the order drawn.
func drawPlainTable(t *testing.T, seed uint64, outlined bool) (gocv.Mat, *calibration.Calibration, []plainDisk) {
	t.Helper()
	const w, h, s = 1920, 1080, 15.0
	radii := []float64{1.25, 2.225, 2.54, 3.175, 4.445, 5.2}
	rng := rand.New(rand.NewPCG(seed, 77))
	frame := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	frame.SetTo(gocv.NewScalar(40+rng.Float64()*150, 40+rng.Float64()*150, 40+rng.Float64()*150, 0))
	some := func() color.RGBA {
		return color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0}
	}
	var disks []plainDisk
	for n := 8 + rng.IntN(12); len(disks) < n; {
		rc := radii[rng.IntN(len(radii))]
		r := rc * s
		x, y := r+rng.Float64()*(w-2*r), r+rng.Float64()*(h-2*r)
		c := image.Pt(int(math.Round(x)), int(math.Round(y)))
		gocv.Circle(&frame, c, int(math.Round(r)), some(), -1)
		if outlined {
			gocv.Circle(&frame, c, int(math.Round(r))-1, color.RGBA{20, 20, 20, 0}, 2)
		} else {
			gocv.Circle(&frame, c, int(math.Round(r-0.12*s)), some(), int(math.Round(0.25*s)))
			gocv.Circle(&frame, image.Pt(c.X+int(r*0.2), c.Y), int(r*0.4), some(), -1)
		}
		disks = append(disks, plainDisk{x / s, y / s, rc})
	}
	gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), 1, 0, gocv.BorderReplicate)
	b, err := frame.DataPtrUint8()
	if err != nil {
		frame.Close()
		t.Fatal(err)
	}
	for i := range b {
		b[i] = byte(max(0, min(255, math.Round(float64(b[i])+3*rng.NormFloat64()))))
	}
	var px []calibration.Pixel
	var tab []models.TablePoint
	for _, q := range [][2]float64{{0, 0}, {120, 0}, {120, 70}, {0, 70}, {60, 35}} {
		px = append(px, calibration.Pixel{U: q[0] * s, V: q[1] * s})
		tab = append(tab, models.TablePoint{X: models.Centimetres(q[0]), Y: models.Centimetres(q[1])})
	}
	cal, err := calibration.FromPoints(nil, w, h, px, tab)
	if err != nil {
		frame.Close()
		t.Fatal(err)
	}
	return frame, cal, disks
}

// On tables drawn by another renderer (drawPlainTable), the detector finds
// the disks, and no circle of art inside a disk is taken for a disk.
// Twelve tables, 185 disks: 179 found (F1 0.984), no phantom. The 6
// missed are spell disks (1.25 cm), most of them largely hidden. Three
// whole disks (5.2, 3.175 and 2.225 cm) whose rim is about the table's
// colour show a face's edge a rim's width inside their outline; before
// the vote looked at them a little smaller (voteShrink) they were missed,
// and the 3.175 cm one's circle of art kept instead. The test guards what
// is reached.
func TestPlainTablesOfAnotherRenderer(t *testing.T) {
	var found, missed, phantoms int
	for seed := uint64(1); seed <= 12; seed++ {
		_, _, got, ph := detectPlainTable(t, seed, false)
		f, m := matchedCount(got)
		found, missed, phantoms = found+f, missed+m, phantoms+ph
	}
	t.Logf("%d disks found, %d missed, %d phantoms", found, missed, phantoms)
	if f := 2 * float64(found) / float64(2*found+missed+phantoms); f < 0.98 || phantoms > 0 {
		t.Errorf("F1 %.3f (%d found, %d missed, %d phantoms), want at least 0.98 and no phantom", f, found, missed, phantoms)
	}
}

// matchedCount counts the disks drawn that detectPlainTable matched (got
// at or above 0) and those it missed.
func matchedCount(got []int) (found, missed int) {
	for _, j := range got {
		if j >= 0 {
			found++
		} else {
			missed++
		}
	}
	return found, missed
}

// detectPlainTable draws table seed (drawPlainTable), detects it with its
// calibration and matches each disk drawn to a disk found (centre within
// 0.3 of its radius, radius within 0.15), one to one. It returns the
// disks drawn, those detected, the index of each drawn disk's match among them (-1:
// missed) and how many found disks match none (phantoms); each miss and
// phantom is logged.
func detectPlainTable(t *testing.T, seed uint64, outlined bool) ([]plainDisk, []models.Disk, []int, int) {
	t.Helper()
	frame, cal, disks := drawPlainTable(t, seed, outlined)
	d := NewDetector(Options{Calibration: cal})
	res, err := d.Detect(frame)
	d.Close()
	frame.Close()
	if err != nil {
		t.Fatal(err)
	}
	found := res.Layout.Disks
	got := make([]int, len(disks))
	used := make([]bool, len(found))
	for i, dk := range disks {
		got[i] = -1
		for j, g := range found {
			if !used[j] && math.Hypot(float64(g.X)-dk.x, float64(g.Y)-dk.y) < 0.3*dk.r && math.Abs(float64(g.R)-dk.r) < 0.15*dk.r {
				used[j], got[i] = true, j
				break
			}
		}
		if got[i] < 0 {
			t.Logf("table %d: the %.3f cm disk at (%.1f, %.1f) cm not found", seed, dk.r, dk.x, dk.y)
		}
	}
	phantoms := 0
	for j, g := range found {
		if !used[j] {
			phantoms++
			t.Logf("table %d: a phantom of %.3f cm at (%.1f, %.1f) cm", seed, g.R, g.X, g.Y)
		}
	}
	return disks, found, got, phantoms
}

// On the other renderer's tables with each disk drawn outlined in black
// instead (drawPlainTable), the disks are found and stacked: where two
// found disks overlap, the one drawn later lies above. Sixteen tables,
// 239 disks: 238 found, no phantom; of the 22 overlapping pairs found,
// one is read the other way round, with a sliver of overlap (3 mm) where
// the upper disk's black outline runs along the lower one's: the lower's
// own outline and dark ring seem to run on across the upper there. The
// test guards what is reached.
func TestOutlinedTablesOfAnotherRenderer(t *testing.T) {
	var found, missed, phantoms, pairs, wrong int
	for seed := uint64(1); seed <= 16; seed++ {
		disks, det, got, ph := detectPlainTable(t, seed, true)
		f, m := matchedCount(got)
		found, missed, phantoms = found+f, missed+m, phantoms+ph
		for i := range disks {
			for k := i + 1; k < len(disks); k++ {
				if math.Hypot(disks[i].x-disks[k].x, disks[i].y-disks[k].y) >= disks[i].r+disks[k].r || got[i] < 0 || got[k] < 0 {
					continue
				}
				pairs++
				if det[got[k]].Z <= det[got[i]].Z {
					wrong++
					t.Logf("table %d: the disk at (%.1f, %.1f) cm read under the one at (%.1f, %.1f) cm it lies on", seed, disks[k].x, disks[k].y, disks[i].x, disks[i].y)
				}
			}
		}
	}
	t.Logf("%d disks found, %d missed, %d phantoms; %d of %d overlapping pairs read the wrong way", found, missed, phantoms, wrong, pairs)
	if f := 2 * float64(found) / float64(2*found+missed+phantoms); f < 0.99 {
		t.Errorf("F1 %.3f (%d found, %d missed, %d phantoms), want at least 0.99", f, found, missed, phantoms)
	}
	if wrong > 1 {
		t.Errorf("%d of %d overlapping pairs read the wrong way, want at most 1", wrong, pairs)
	}
}
