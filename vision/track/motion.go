package track

import (
	"image"
	"math"
	"slices"
)

// Mask marks the cells of a coarse grid laid over the frame: the region
// under a hand. Cell (i, j) covers pixels [i*Cell, (i+1)*Cell) across and
// [j*Cell, (j+1)*Cell) down.
type Mask struct {
	Cell  int
	W, H  int
	Cells []bool
}

// At reports whether pixel (u, v) lies in a marked cell.
func (m *Mask) At(u, v float64) bool {
	if m == nil || u < 0 || v < 0 {
		return false
	}
	i, j := int(u)/m.Cell, int(v)/m.Cell
	return i < m.W && j < m.H && m.Cells[j*m.W+i]
}

// Covers reports whether any marked cell meets the circle of centre
// (u, v) and radius r, in pixels.
func (m *Mask) Covers(u, v, r float64) bool {
	if m == nil {
		return false
	}
	c := float64(m.Cell)
	for j := max(0, int((v-r)/c)); j <= min(m.H-1, int((v+r)/c)); j++ {
		for i := max(0, int((u-r)/c)); i <= min(m.W-1, int((u+r)/c)); i++ {
			if !m.Cells[j*m.W+i] {
				continue
			}
			// Nearest point of the cell to the centre.
			nx := math.Max(float64(i)*c, math.Min(u, float64(i+1)*c))
			ny := math.Max(float64(j)*c, math.Min(v, float64(j+1)*c))
			if math.Hypot(nx-u, ny-v) <= r {
				return true
			}
		}
	}
	return false
}

// Area is the number of marked cells.
func (m *Mask) Area() int {
	if m == nil {
		return 0
	}
	n := 0
	for _, c := range m.Cells {
		if c {
			n++
		}
	}
	return n
}

// DifferOptions configure the frame differencing; the zero value works
// for webcam frames of any size.
type DifferOptions struct {
	// Cell is the side of a grid cell in pixels (default: the frame width
	// over 120).
	Cell int
	// Threshold is the change in a cell's mean colour, in 8-bit levels,
	// that counts as a change (default 14).
	Threshold float64
	// MinCells is how many changed cells make motion (default 2).
	MinCells int
	// HandArea is the smallest share of the frame a hand region covers
	// (default 0.015). A hand region also reaches the frame's edge and
	// has some skin colour.
	HandArea float64
	// StillHand is how many frames a hand region may stay perfectly still
	// before it is taken for a change of the table instead (a bumped
	// camera, a piece left where the reference had none) (default 30).
	StillHand int
	// Global is the share of changed cells against the reference above
	// which the whole view is taken to have changed (default 0.3).
	Global float64
	// Scattered is how many separate changed regions against the
	// reference make a changed view rather than a hand (default 12).
	Scattered int
}

func (o DifferOptions) withDefaults(w int) DifferOptions {
	if o.Cell <= 0 {
		o.Cell = max(2, w/120)
	}
	if o.Threshold <= 0 {
		o.Threshold = 14
	}
	if o.MinCells <= 0 {
		o.MinCells = 2
	}
	if o.HandArea <= 0 {
		o.HandArea = 0.015
	}
	if o.StillHand <= 0 {
		o.StillHand = 30
	}
	if o.Global <= 0 {
		o.Global = 0.3
	}
	if o.Scattered <= 0 {
		o.Scattered = 12
	}
	return o
}

// Motion is what the differ saw in a frame.
type Motion struct {
	// Moving: the frame differs from the previous one.
	Moving bool
	// Changed is the share of cells that differ from the previous frame.
	Changed float64
	// Hand: a large region that differs from the reference (the last
	// settled frame), reaches in from the edge of the frame and has some
	// skin colour. Hand is its region; nil when there is none.
	Hand *Mask
	// Global: most of the view differs from the reference (a bumped
	// camera, or a change of light).
	Global bool
	// Held is the region of a "hand" that stayed perfectly still for
	// more than StillHand frames: it is taken for a change of the table
	// from then on (Hand is nil and Global set, so the table may settle),
	// yet it may still be a hand resting there, so a reading ignores what
	// lies under it. Nil when there is none.
	Held *Mask
}

// Differ compares each frame with the previous one and with a reference
// frame, on a coarse grid of cell mean colours. Not safe for concurrent
// use.
type Differ struct {
	Options DifferOptions

	opt       DifferOptions
	w, h      int // grid size
	fw, fh    int // frame size
	cur, prev []float32
	ref       []float32
	haveRef   bool
	stillHand int
}

// Observe takes the next frame. The first frame becomes the reference.
// An empty frame (no pixel) shows nothing: no motion, and it is not kept.
func (d *Differ) Observe(img image.Image) Motion {
	b := img.Bounds()
	if b.Empty() {
		return Motion{}
	}
	if d.cur == nil || b.Dx() != d.fw || b.Dy() != d.fh {
		d.setup(b.Dx(), b.Dy())
	}
	d.cur, d.prev = d.prev, d.cur
	d.sample(newPixelReader(img), d.cur)
	var m Motion
	if d.prev[0] >= 0 {
		n := d.changed(d.cur, d.prev, nil)
		m.Changed = float64(n) / float64(d.w*d.h)
		m.Moving = n >= d.opt.MinCells
	} else {
		m.Moving = true
	}
	if !d.haveRef {
		d.SetReference()
	}
	diff := make([]bool, d.w*d.h)
	n := d.changed(d.cur, d.ref, diff)
	m.Global = float64(n) >= d.opt.Global*float64(d.w*d.h)
	if !m.Global {
		var parts int
		m.Hand, parts = d.hand(diff)
		// Changes scattered all over the view (every outline and grain
		// line moved a little) are a moved camera, not a hand.
		if parts >= d.opt.Scattered {
			m.Hand, m.Global = nil, true
		}
	}
	if m.Hand != nil {
		if m.Moving {
			d.stillHand = 0
		} else {
			d.stillHand++
		}
		if d.stillHand > d.opt.StillHand {
			m.Hand, m.Held, m.Global = nil, m.Hand, true
		}
	} else {
		d.stillHand = 0
	}
	return m
}

// AtReference reports whether the frame last observed looks like the
// reference: nothing on the table changed since it settled (a hand came
// and went, a token was picked up and put back).
func (d *Differ) AtReference() bool {
	if d.cur == nil || !d.haveRef {
		return false
	}
	return d.changed(d.cur, d.ref, nil) < d.opt.MinCells
}

// SetReference makes the frame last observed the reference (call it when
// the table has settled).
func (d *Differ) SetReference() {
	if d.cur == nil {
		return
	}
	copy(d.ref, d.cur)
	d.haveRef = true
	d.stillHand = 0
}

func (d *Differ) setup(fw, fh int) {
	d.opt = d.Options.withDefaults(fw)
	d.fw, d.fh = fw, fh
	d.w, d.h = (fw+d.opt.Cell-1)/d.opt.Cell, (fh+d.opt.Cell-1)/d.opt.Cell
	d.cur = make([]float32, 3*d.w*d.h)
	d.prev = make([]float32, 3*d.w*d.h)
	d.ref = make([]float32, 3*d.w*d.h)
	d.prev[0], d.cur[0] = -1, -1
	d.haveRef = false
}

// sample fills dst with each cell's mean colour, read on a 4x4 grid of
// pixels inside the cell.
func (d *Differ) sample(pr pixelReader, dst []float32) {
	c := d.opt.Cell
	k := max(1, c/4)
	for j := range d.h {
		for i := range d.w {
			var sum [3]float32
			var n float32
			for y := j*c + k/2; y < (j+1)*c; y += k {
				for x := i*c + k/2; x < (i+1)*c; x += k {
					if p, ok := pr.at(x, y); ok {
						sum[0] += p[0]
						sum[1] += p[1]
						sum[2] += p[2]
						n++
					}
				}
			}
			o := 3 * (j*d.w + i)
			if n > 0 {
				dst[o], dst[o+1], dst[o+2] = sum[0]/n, sum[1]/n, sum[2]/n
			}
		}
	}
}

// changed counts the cells whose colour differs between a and b by more
// than the threshold, after taking out the median brightness change (a
// webcam's exposure drifting); it marks them in mark when not nil.
func (d *Differ) changed(a, b []float32, mark []bool) int {
	deltas := make([]float32, d.w*d.h)
	for i := range deltas {
		deltas[i] = (a[3*i] + a[3*i+1] + a[3*i+2] - b[3*i] - b[3*i+1] - b[3*i+2]) / 3
	}
	sorted := slices.Clone(deltas)
	slices.Sort(sorted)
	shift := sorted[len(sorted)/2]
	n := 0
	for i := range deltas {
		var worst float32
		for c := range 3 {
			worst = max(worst, abs32(a[3*i+c]-b[3*i+c]-shift))
		}
		if float64(worst) > d.opt.Threshold {
			n++
			if mark != nil {
				mark[i] = true
			}
		}
	}
	return n
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// hand returns the hand region among the changed cells: the connected
// regions (grown by a cell) large enough for a hand, that reach the edge
// of the frame and have some skin colour.
func (d *Differ) hand(diff []bool) (*Mask, int) {
	grown := dilate(diff, d.w, d.h)
	label := make([]int32, len(grown))
	minArea := int(d.opt.HandArea * float64(d.w*d.h))
	var out *Mask
	next := int32(0)
	parts := 0
	for start := range grown {
		if !grown[start] || label[start] != 0 {
			continue
		}
		next++
		cells, edge := flood(grown, label, d.w, d.h, start, next)
		if len(cells) >= 9 {
			parts++
		}
		if len(cells) < minArea {
			continue
		}
		// Seen from above, an arm always reaches in from the edge of the
		// view; a large change inside the view is pieces (a volley of
		// arrows), even when its colour is skin-like.
		if !edge || d.skinShare(cells) < 0.1 {
			continue
		}
		if out == nil {
			out = &Mask{Cell: d.opt.Cell, W: d.w, H: d.h, Cells: make([]bool, d.w*d.h)}
		}
		for _, c := range cells {
			out.Cells[c] = true
		}
	}
	return out, parts
}

// flood labels the 4-connected region of grid from start and returns its
// cells and whether it touches the grid's border.
func flood(grid []bool, label []int32, w, h, start int, id int32) ([]int, bool) {
	stack := []int{start}
	label[start] = id
	var cells []int
	edge := false
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		cells = append(cells, c)
		x, y := c%w, c/w
		if x == 0 || y == 0 || x == w-1 || y == h-1 {
			edge = true
		}
		for _, nb := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
			if nb[0] < 0 || nb[1] < 0 || nb[0] >= w || nb[1] >= h {
				continue
			}
			k := nb[1]*w + nb[0]
			if grid[k] && label[k] == 0 {
				label[k] = id
				stack = append(stack, k)
			}
		}
	}
	return cells, edge
}

// dilate grows the marked cells by one in the eight directions.
func dilate(g []bool, w, h int) []bool {
	out := make([]bool, len(g))
	for y := range h {
		for x := range w {
			if !g[y*w+x] {
				continue
			}
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if xx, yy := x+dx, y+dy; xx >= 0 && yy >= 0 && xx < w && yy < h {
						out[yy*w+xx] = true
					}
				}
			}
		}
	}
	return out
}

// skinShare is the share of the cells whose colour is skin-like (red
// above green above blue, moderately saturated).
func (d *Differ) skinShare(cells []int) float64 {
	n := 0
	for _, c := range cells {
		r, g, b := d.cur[3*c], d.cur[3*c+1], d.cur[3*c+2]
		if r > 60 && r > g*1.08 && g > b && r-b > 25 && r-b < 150 {
			n++
		}
	}
	return float64(n) / float64(max(1, len(cells)))
}
