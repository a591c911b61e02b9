package vision

import (
	"math"

	"tableref/calibration"
)

// How the light over the table is read
//
// A lamp lights a table unevenly: brighter under it than at the corners,
// a bright patch where it is closest, a camera's lens darker toward the
// frame's edges. At a dim corner a chit is seen at half the brightness of
// one in the middle, darker than any catalogue colour's ray reaches
// (colours.go) without taking in the disks' art. The table shows the
// light: it is the one surface seen all over the frame, its chromaticity
// (r, g and b over their sum) does not change with the light's strength,
// and its brightness does. So the light is read from the table: the
// frame's most common chromaticity is the table's; in each cell of a
// coarse grid, the median brightness of the table's pixels; a smooth
// surface (a quadratic in log brightness, fitted robustly, so that a disk
// of the table's colour but another lightness is left out) through those
// medians, with what a quadratic misses (a lamp's bright patch) added
// back from the neighbouring cells where they agree with each other (a
// cell that stands out of those around it is a disk of the table's
// colour, and is left out); then each cell's median again, of only its
// samples near the light so read (a disk that covers part of a cell
// pulls its first median off). The light at a point is relative to the
// frame's typical light (the median over the table's cells): the colour
// table matches a chit of a colour seen there on its ray scaled by that
// light (colours.go).

// lightField is the light over the frame relative to its typical light:
// 1 where a surface looks as it does across most of the table, 0.6 where
// it looks 0.6 as bright. Its zero value is even light.
type lightField struct {
	cols, rows int       // nodes of the grid, cell centres
	cell       float64   // frame pixels from a node to the next
	gain       []float64 // by node, row by row
}

// Grid and sampling of lightField.
const (
	lightCells      = 16    // cells across the frame
	lightSamples    = 8     // samples across a cell each way
	lightChromaTol  = 0.025 // chromaticity distance from the table's of its pixels
	lightTableLeast = 0.25  // least share of a cell's samples of the table for it to count
	lightDarkest    = 45    // least r+g+b of a sample (darker: its chromaticity is noise)
	lightCellsLeast = 8     // fewest cells of the table for a field
	lightSmooth     = 0.7   // Gaussian radius (cells) over which residuals are shared
	lightLeast      = 0.4   // the field's range, to be safe from a wild fit
	lightMost       = 1.8
)

// at returns the light at frame pixel (x, y): 1 for the zero field.
func (f *lightField) at(x, y float64) float64 {
	if len(f.gain) == 0 {
		return 1
	}
	gx := min(max(x/f.cell-0.5, 0), float64(f.cols-1))
	gy := min(max(y/f.cell-0.5, 0), float64(f.rows-1))
	x0, y0 := int(gx), int(gy)
	x1, y1 := min(x0+1, f.cols-1), min(y0+1, f.rows-1)
	fx, fy := gx-float64(x0), gy-float64(y0)
	g := f.gain
	top := g[y0*f.cols+x0]*(1-fx) + g[y0*f.cols+x1]*fx
	bot := g[y1*f.cols+x0]*(1-fx) + g[y1*f.cols+x1]*fx
	return top*(1-fy) + bot*fy
}

// readLight reads the light over frame c from its table (see above). A
// frame where no colour covers enough of it to be a table gives the zero
// field (even light).
func readLight(c bgrImage) lightField {
	if c.w < lightCells || c.h < lightCells {
		return lightField{}
	}
	cell := float64(c.w) / lightCells
	cols, rows := lightCells, max(1, int(math.Round(float64(c.h)/cell)))
	step := max(1, cell/lightSamples)
	// The table's chromaticity: the peak of a histogram of all samples'.
	const bins = 64
	var hist [bins * bins]int32
	type sample struct{ r, g, sum float32 }
	samples := make([]sample, 0, cols*rows*lightSamples*lightSamples)
	cellOf := make([]int32, 0, cap(samples))
	for y := step / 2; y < float64(c.h); y += step {
		yi := int(y)
		row := min(rows-1, int(y/cell))
		for x := step / 2; x < float64(c.w); x += step {
			xi := int(x)
			i := (yi*c.w + xi) * 3
			b, g, r := float32(c.pix[i]), float32(c.pix[i+1]), float32(c.pix[i+2])
			sum := r + g + b
			if sum < lightDarkest || max(r, g, b) >= 250 {
				continue
			}
			s := sample{r / sum, g / sum, sum}
			samples = append(samples, s)
			cellOf = append(cellOf, int32(row*cols+min(cols-1, int(x/cell))))
			hist[min(bins-1, int(s.r*bins))*bins+min(bins-1, int(s.g*bins))]++
		}
	}
	best, peak := int32(0), 0
	for i := range hist {
		ri, gi := i/bins, i%bins
		var n int32
		for dr := -1; dr <= 1; dr++ {
			for dg := -1; dg <= 1; dg++ {
				if r, g := ri+dr, gi+dg; r >= 0 && g >= 0 && r < bins && g < bins {
					n += hist[r*bins+g]
				}
			}
		}
		if n > best {
			best, peak = n, i
		}
	}
	// The peak's chromaticity, the mean of its 3x3 bins' samples.
	pr := (float32(peak/bins) + 0.5) / bins
	pg := (float32(peak%bins) + 0.5) / bins
	var sr, sg float32
	var sn int
	for _, s := range samples {
		if abs32(s.r-pr) <= 1.5/bins && abs32(s.g-pg) <= 1.5/bins {
			sr, sg, sn = sr+s.r, sg+s.g, sn+1
		}
	}
	if sn == 0 {
		return lightField{}
	}
	pr, pg = sr/float32(sn), sg/float32(sn)
	// Each cell's table brightness: the median of its table samples'.
	n := cols * rows
	perCell := make([][]float64, n)
	total := make([]int, n)
	for i, s := range samples {
		ci := cellOf[i]
		total[ci]++
		if dr, dg := s.r-pr, s.g-pg; dr*dr+dg*dg <= lightChromaTol*lightChromaTol {
			perCell[ci] = append(perCell[ci], float64(s.sum))
		}
	}
	var xs, ys, vs []float64
	var at []int
	for ci, v := range perCell {
		if len(v) < 8 || float64(len(v)) < lightTableLeast*float64(total[ci]) {
			continue
		}
		at = append(at, ci)
		xs = append(xs, cellCentre(ci%cols, cols))
		ys = append(ys, cellCentre(ci/cols, rows))
		vs = append(vs, math.Log(nth(v, len(v)/2)))
	}
	if len(vs) < lightCellsLeast {
		return lightField{}
	}
	logLight, _ := smoothLight(cols, rows, at, xs, ys, vs)
	// A second look at each cell, at only its samples near the light
	// read there: a disk of the table's colour but another lightness that
	// covers part of a cell pulls its median off.
	for k, ci := range at {
		lo, hi := math.Exp(logLight[ci]-lightNear), math.Exp(logLight[ci]+lightNear)
		near := perCell[ci][:0]
		for _, v := range perCell[ci] {
			if v >= lo && v <= hi {
				near = append(near, v)
			}
		}
		if len(near) >= 8 {
			vs[k] = math.Log(nth(near, len(near)/2))
		}
	}
	logLight, ref := smoothLight(cols, rows, at, xs, ys, vs)
	f := lightField{cols: cols, rows: rows, cell: cell, gain: make([]float64, n)}
	for ci := range f.gain {
		f.gain[ci] = min(max(math.Exp(logLight[ci]-ref), lightLeast), lightMost)
	}
	return f
}

// lightNear is how far (log brightness) from the light first read in a
// cell its samples are taken again.
const lightNear = 0.2

// cellCentre is the centre of cell i of n across the frame, from -1 to 1.
func cellCentre(i, n int) float64 { return (float64(i)+0.5)/float64(n)*2 - 1 }

// smoothLight returns the log brightness of the table in each of the
// cols x rows cells, from the medians vs of the cells at (numbered row by
// row; xs and ys: their centres, cellCentre), and the typical level (the
// median of the cells kept).
func smoothLight(cols, rows int, at []int, xs, ys, vs []float64) ([]float64, float64) {
	n := cols * rows
	coef := robustQuadratic(xs, ys, vs)
	// What the quadratic misses, cell by cell: a lamp's bright patch
	// spans several cells and is kept, a disk of the table's colour but
	// another lightness stands out of the cells around it and is left
	// out.
	res := make([]float64, n)
	has := make([]bool, n)
	for k, ci := range at {
		res[ci] = vs[k] - quadratic(coef, xs[k], ys[k])
		has[ci] = true
	}
	local := make([]float64, n)
	var dev, near []float64
	for _, ci := range at {
		cx, cy := ci%cols, ci/cols
		near = near[:0]
		for y := max(0, cy-2); y <= min(rows-1, cy+2); y++ {
			for x := max(0, cx-2); x <= min(cols-1, cx+2); x++ {
				if j := y*cols + x; has[j] {
					near = append(near, res[j])
				}
			}
		}
		local[ci] = nth(near, len(near)/2)
		dev = append(dev, math.Abs(res[ci]-local[ci]))
	}
	limit := max(4*1.4826*median(dev), lightOutlier)
	var kept []float64
	for k, ci := range at {
		if math.Abs(res[ci]-local[ci]) > limit {
			has[ci] = false
			continue
		}
		kept = append(kept, vs[k])
	}
	out := make([]float64, n)
	reach := int(math.Ceil(2 * lightSmooth))
	for ci := range n {
		cx, cy := ci%cols, ci/cols
		var num, den float64
		for y := max(0, cy-reach); y <= min(rows-1, cy+reach); y++ {
			for x := max(0, cx-reach); x <= min(cols-1, cx+reach); x++ {
				j := y*cols + x
				if !has[j] {
					continue
				}
				d2 := float64((x-cx)*(x-cx) + (y-cy)*(y-cy))
				w := math.Exp(-d2 / (2 * lightSmooth * lightSmooth))
				num += w * res[j]
				den += w
			}
		}
		// Where few cells of the table are near (less weight than one
		// cell's own), their residuals count for less, the quadratic
		// for more.
		out[ci] = quadratic(coef, cellCentre(cx, cols), cellCentre(cy, rows)) + num/max(den, 1)
	}
	return out, median(kept)
}

func abs32(v float32) float32 { return max(v, -v) }

// quadratic evaluates c0 + c1 x + c2 y + c3 x² + c4 xy + c5 y².
func quadratic(c [6]float64, x, y float64) float64 {
	return c[0] + c[1]*x + c[2]*y + c[3]*x*x + c[4]*x*y + c[5]*y*y
}

// robustQuadratic fits a quadratic surface to values v at (x, y) by least
// squares, leaving out, over a few rounds, the points further from it
// than three robust standard deviations (at least lightResidualLeast):
// cells of a disk of the table's colour, not of the table.
func robustQuadratic(x, y, v []float64) [6]float64 {
	in := make([]bool, len(v))
	for i := range in {
		in[i] = true
	}
	var c [6]float64
	for range 4 {
		a := make([][]float64, 6)
		for r := range a {
			a[r] = make([]float64, 6)
		}
		b := make([]float64, 6)
		kept := 0
		for i := range v {
			if !in[i] {
				continue
			}
			kept++
			t := [6]float64{1, x[i], y[i], x[i] * x[i], x[i] * y[i], y[i] * y[i]}
			for r := range 6 {
				for k := range 6 {
					a[r][k] += t[r] * t[k]
				}
				b[r] += t[r] * v[i]
			}
		}
		if kept < lightCellsLeast {
			break
		}
		// A little damping of the curvature keeps a fit over a few cells
		// from bending wildly where it has none.
		for r := 3; r < 6; r++ {
			a[r][r] += 0.5
		}
		sol, err := calibration.Solve(a, b)
		if err != nil {
			break
		}
		c = [6]float64(sol)
		dev := make([]float64, 0, len(v))
		for i := range v {
			if in[i] {
				dev = append(dev, math.Abs(v[i]-quadratic(c, x[i], y[i])))
			}
		}
		limit := max(3*1.4826*median(dev), lightResidualLeast)
		changed := false
		for i := range v {
			if keep := math.Abs(v[i]-quadratic(c, x[i], y[i])) <= limit; keep != in[i] {
				in[i], changed = keep, true
			}
		}
		if !changed {
			break
		}
	}
	return c
}

// lightResidualLeast is the least distance (log brightness) from the
// fitted surface at which a cell is left out: the table's own grain and
// print vary its cells by a few per cent.
const lightResidualLeast = 0.08

// lightOutlier is the least distance (log brightness) of a cell from the
// cells around it at which it is left out: a lamp's patch and a lens's
// corners change the light by less from one cell to the next.
const lightOutlier = 0.15
