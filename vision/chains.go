package vision

import "math"

// edgeMap is a binary edge image: pix[y*w+x] != 0 marks an edge pixel.
type edgeMap struct {
	pix    []uint8
	gx, gy []int16 // the grey-level gradient at each pixel (Sobel)
	lab    []uint8 // the image in Lab, 3 bytes a pixel; nil: no step test
	w, h   int
}

// stepMin is the smallest colour difference (Lab, OpenCV's 8-bit scale)
// across a disk's outline: a disk's edge separates two surfaces, while a
// line drawn on the table has the same colour on both sides.
const stepMin = 12

// step reports whether the colours at detection pixels (x0, y0) and
// (x1, y1) differ by a step.
func (e edgeMap) step(x0, y0, x1, y1 float64) bool {
	if e.lab == nil {
		return true
	}
	a, ok0 := e.labAt(x0, y0)
	b, ok1 := e.labAt(x1, y1)
	if !ok0 || !ok1 {
		return false
	}
	dl, da, db := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return dl*dl+da*da+db*db >= stepMin*stepMin
}

func (e edgeMap) labAt(x, y float64) ([3]float64, bool) {
	xi, yi := int(math.Round(x)), int(math.Round(y))
	if xi < 0 || yi < 0 || xi >= e.w || yi >= e.h {
		return [3]float64{}, false
	}
	i := 3 * (yi*e.w + xi)
	return [3]float64{float64(e.lab[i]), float64(e.lab[i+1]), float64(e.lab[i+2])}, true
}

// labMean is the mean Lab colour of the 3x3 detection pixels around
// (x, y); false off the image.
func (e edgeMap) labMean(x, y float64) ([3]float64, bool) {
	xi, yi := int(math.Round(x)), int(math.Round(y))
	if xi < 1 || yi < 1 || xi >= e.w-1 || yi >= e.h-1 {
		return [3]float64{}, false
	}
	var m [3]float64
	for dy := -1; dy <= 1; dy++ {
		i := 3 * ((yi+dy)*e.w + xi - 1)
		for k := 0; k < 9; k++ {
			m[k%3] += float64(e.lab[i+k])
		}
	}
	return [3]float64{m[0] / 9, m[1] / 9, m[2] / 9}, true
}

// aligned reports whether the gradient at pixel i points along the unit
// direction (dx, dy) or against it, within about 30 degrees.
func (e edgeMap) aligned(i int, dx, dy float64) bool {
	if e.gx == nil {
		return true
	}
	gx, gy := float64(e.gx[i]), float64(e.gy[i])
	g := hypot(gx, gy)
	return g > 0 && math.Abs(gx*dx+gy*dy) >= 0.85*g
}

// edgeNear reports whether an edge pixel within a pixel of detection pixel
// (x, y) has its gradient along the unit direction (nx, ny).
func (e edgeMap) edgeNear(x, y int, nx, ny float64) bool {
	if x < 1 || y < 1 || x >= e.w-1 || y >= e.h-1 {
		return false
	}
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if i := (y+dy)*e.w + x + dx; e.pix[i] != 0 && e.aligned(i, nx, ny) {
				return true
			}
		}
	}
	return false
}

func (e edgeMap) at(x, y int) bool {
	return x >= 0 && y >= 0 && x < e.w && y < e.h && e.pix[y*e.w+x] != 0
}

// neighbours in the order they are tried: the 4-neighbours first, so that
// a chain follows the edge rather than cutting corners.
var nbrs = [8][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}}

// chain is a run of edge pixels, each next to the previous one.
type chain struct {
	px     []int32 // pixel indices y*w+x
	closed bool    // the last pixel touches the first
}

// linkEdges traces the edge pixels into chains of at least minLen pixels:
// from every end point first, then around closed loops. visited (w*h
// bytes) and pxs (the chains' pixels, which the chains returned are
// slices of) are scratch space reused between frames; it returns the
// chains and pxs.
func linkEdges(e edgeMap, minLen int, visited []uint8, pxs []int32) ([]chain, []int32) {
	clear(visited)
	var out []chain
	w := e.w
	// The neighbours' index offsets, in nbrs' order, for pixels off the
	// border (those need no bounds check).
	var off [8]int
	for k, d := range nbrs {
		off[k] = d[1]*w + d[0]
	}
	inner := func(i int) bool {
		x, y := i%w, i/w
		return x > 0 && y > 0 && x < w-1 && y < e.h-1
	}
	count := func(i int) int {
		n := 0
		if inner(i) {
			for _, o := range off {
				if e.pix[i+o] != 0 {
					n++
				}
			}
			return n
		}
		x, y := i%w, i/w
		for _, d := range nbrs {
			if e.at(x+d[0], y+d[1]) {
				n++
			}
		}
		return n
	}
	pxs = pxs[:0]
	trace := func(start int) chain {
		first := len(pxs)
		pxs = append(pxs, int32(start))
		visited[start] = 1
		cur := start
		for {
			next := -1
			if inner(cur) {
				for _, o := range off {
					if j := cur + o; e.pix[j] != 0 && visited[j] == 0 {
						next = j
						break
					}
				}
			} else {
				x, y := cur%w, cur/w
				for _, d := range nbrs {
					nx, ny := x+d[0], y+d[1]
					if e.at(nx, ny) && visited[ny*w+nx] == 0 {
						next = ny*w + nx
						break
					}
				}
			}
			if next < 0 {
				break
			}
			visited[next] = 1
			pxs = append(pxs, int32(next))
			cur = next
		}
		c := chain{px: pxs[first:len(pxs):len(pxs)]}
		if len(c.px) > 2 {
			x0, y0 := start%w, start/w
			x1, y1 := cur%w, cur/w
			c.closed = abs(x0-x1) <= 1 && abs(y0-y1) <= 1
		}
		if len(c.px) < minLen {
			pxs = pxs[:first] // its pixels are not kept
		}
		return c
	}
	// End points (one neighbour) and junction-free starts first.
	for i, v := range e.pix {
		if v == 0 || visited[i] != 0 {
			continue
		}
		if count(i) == 1 {
			if c := trace(i); len(c.px) >= minLen {
				out = append(out, c)
			}
		}
	}
	for i, v := range e.pix {
		if v == 0 || visited[i] != 0 {
			continue
		}
		if c := trace(i); len(c.px) >= minLen {
			out = append(out, c)
		}
	}
	return out, pxs
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
