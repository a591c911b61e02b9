package vision

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"tableref/models"
)

// layout turns measured disks into the Layout of the spec.
func (d *Detector) layout(fits []diskFit, above [][]int, colour bgrImage) models.Layout {
	pl := d.plane
	l := models.Layout{Version: models.Version, Source: "vision"}
	if pl.cal == nil {
		l.Units = models.UnitsPixels
	}
	order := make([]int, len(fits))
	for i := range order {
		order[i] = i
	}
	// Ids in reading order: top to bottom, left to right, in the image.
	centres := make([][2]float64, len(fits))
	for i, f := range fits {
		u, v, _ := pl.toImage(f.c.C, f.height)
		centres[i] = [2]float64{u, v}
	}
	slices.SortFunc(order, func(a, b int) int {
		ra, rb := int(centres[a][1]/50), int(centres[b][1]/50)
		if ra != rb {
			return ra - rb
		}
		return int(math.Copysign(1, centres[a][0]-centres[b][0]))
	})
	for n, i := range order {
		f := fits[i]
		disk := models.Disk{ID: fmt.Sprintf("d%d", n+1), Z: f.level}
		measured := ""
		disk.Pixel = d.pixelCircle(f)
		if pl.cal != nil {
			disk.X, disk.Y, disk.R = models.Centimetres(f.c.C.X), models.Centimetres(f.c.C.Y), models.Centimetres(f.c.R)
			measured = fmt.Sprintf("%.4f", f.c.R)
			if s, ok := d.snap(disk.R); ok {
				disk.R, disk.Kind = s.Radius, s.Kind
			} else {
				disk.Kind = models.KindUnknown
				if disk.R > 6 {
					disk.Kind = models.KindTerrain
				}
			}
		} else {
			disk.X, disk.Y, disk.R = models.Centimetres(disk.Pixel.PX), models.Centimetres(disk.Pixel.PY), models.Centimetres(disk.Pixel.PR)
			disk.Kind = models.KindUnknown
		}
		if c := rimColour(f, fits, above[i]); c != "unknown" {
			disk.RimColour = c
		}
		disk.Rim = models.RimClass(disk.RimColour)
		disk.Extra = map[string]json.RawMessage{"confidence": json.RawMessage(fmt.Sprintf("%.3f", f.coverage))}
		if measured != "" {
			disk.Extra["measured_r"] = json.RawMessage(measured)
		}
		l.Disks = append(l.Disks, disk)
	}
	return l
}

// pixelCircle returns the disk's outline in the image: the centre of its
// top face and the mean distance of its outline from it.
func (d *Detector) pixelCircle(f diskFit) *models.ImageCircle {
	pl := d.plane
	cu, cv, _ := pl.toImage(f.c.C, f.height)
	var sum float64
	n := 0
	for k := range 16 {
		u, v, ok := pl.toImage(f.c.at(2*math.Pi*float64(k)/16), f.height)
		if ok {
			sum += hypot(u-cu, v-cv)
			n++
		}
	}
	return &models.ImageCircle{PX: round3(cu), PY: round3(cv), PR: round3(sum / float64(max(n, 1)))}
}

// snap returns the catalogue size nearest r, and whether it lies within
// the snap tolerance: SnapTolerance of the size, but never less than
// snapPixels of the frame (a small disk's outline is measured no more
// finely than a large one's).
func (d *Detector) snap(r models.Centimetres) (DiskSize, bool) {
	best := d.nearestSize(r)
	tol := d.opt.SnapTolerance * float64(best.Radius)
	if pl := d.plane; pl != nil && pl.cal != nil {
		tol = max(tol, snapPixels*pl.pixel/pl.scale)
	}
	return best, math.Abs(float64(r-best.Radius)) <= tol
}

// nearestSize returns the catalogue size nearest radius r.
func (d *Detector) nearestSize(r models.Centimetres) DiskSize {
	best, bestErr := DiskSize{}, math.Inf(1)
	for _, s := range d.opt.Disks {
		if e := math.Abs(float64(r - s.Radius)); e < bestErr {
			best, bestErr = s, e
		}
	}
	return best
}

// snapPixels is the least snap tolerance, in full-frame pixels of the
// table near the frame's centre: about the spread of a measured radius.
const snapPixels = 1.5

// rimColour classifies the colour of the ring just inside a disk's edge,
// where it is not covered by disks above: the colour each of its probes
// read just inside the edge it found (refine: rimSampleDepth, inside the
// narrowest rim). Read instead at a share of the radius (5 and 8 %), a
// large disk's thin rim was passed over for its face: on 12 rendered
// tables a tier, 58 of 78 rims right on the easy tier, 112 of 130 on the
// medium, 128 of 164 on the hard; read at the edge, 78, 130 and 148; and
// black where the colour a pixel and a half inside is black (a black rim
// drawn as a thin line, the face just inside it), 78, 130 and 153.
func rimColour(f diskFit, fits []diskFit, above []int) string {
	votes := map[string]int{}
	n := 0
	for _, s := range f.samples {
		if !s.ok || coveredBy(f.c.at(s.angle), fits, above, 0) {
			continue
		}
		c := colourClass(s.inner[0], s.inner[1], s.inner[2])
		if colourClass(s.near[0], s.near[1], s.near[2]) == "black" {
			c = "black" // a black rim thinner than the depth of inner
		}
		votes[c]++
		n++
	}
	best, bestN := "unknown", 0
	for c, v := range votes {
		if v > bestN || (v == bestN && c < best) {
			best, bestN = c, v
		}
	}
	if n == 0 || float64(bestN) < 0.4*float64(n) || best == "grey" || best == "white" {
		return "unknown"
	}
	return best
}

// colourClass names a colour: black, white, grey, red, gold, green, blue,
// purple.
func colourClass(r, g, b float64) string {
	h, s, v := hsv(r, g, b)
	switch {
	case v < 55:
		return "black"
	case s < 0.22 && v > 190:
		return "white"
	case s < 0.22:
		return "grey"
	case h < 18 || h >= 330:
		return "red"
	case h < 70:
		return "gold"
	case h < 165:
		return "green"
	case h < 260:
		return "blue"
	}
	return "purple"
}

// hsv returns hue in degrees, saturation and value (0..255).
func hsv(r, g, b float64) (h, s, v float64) {
	mx, mn := max(r, g, b), min(r, g, b)
	v = mx
	if mx == 0 {
		return 0, 0, 0
	}
	s = (mx - mn) / mx
	d := mx - mn
	switch {
	case d == 0:
		h = 0
	case mx == r:
		h = 60 * math.Mod((g-b)/d, 6)
	case mx == g:
		h = 60 * ((b-r)/d + 2)
	default:
		h = 60 * ((r-g)/d + 4)
	}
	if h < 0 {
		h += 360
	}
	return h, s, v
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
