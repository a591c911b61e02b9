package vision

import (
	"unsafe"

	"gocv.io/x/gocv"
)

// region is a connected region of a mask: its area in pixels, its bounding
// box and its centroid, in detection pixels.
type region struct {
	area           int
	x0, y0, x1, y1 int // the box, x1 and y1 excluded
	cx, cy         float64
}

// labeller labels the regions of masks, keeping its Mat and slices from one
// labelling to the next.
type labeller struct {
	labels  gocv.Mat // CV_32S
	regions []region
	sums    []float64
}

// labelRegions labels the connected regions of the 8-bit mask (8- or
// 4-connected) and returns the label of each pixel (row by row, valid
// until the labeller's next labelling) and the regions, the background's
// at index 0. OpenCV labels; the regions are measured here, a row's run
// at a time, which costs a fraction of OpenCV's own statistics.
func (d *labeller) labelRegions(mask gocv.Mat, connectivity int) ([]int32, []region) {
	n := gocv.ConnectedComponentsWithParams(mask, &d.labels, connectivity, gocv.MatTypeCV32S, gocv.CCL_DEFAULT)
	raw, err := d.labels.DataPtrUint8()
	if err != nil || len(raw) < 4 || n < 1 {
		return nil, nil
	}
	labels := unsafe.Slice((*int32)(unsafe.Pointer(&raw[0])), len(raw)/4)
	w := mask.Cols()
	d.regions = d.regions[:0]
	for range n {
		d.regions = append(d.regions, region{x0: w, y0: len(labels) / w})
	}
	rs := d.regions
	var sx, sy []float64
	if cap(d.sums) < 2*n {
		d.sums = make([]float64, 2*n)
	}
	sx, sy = d.sums[:n], d.sums[n:2*n]
	clear(sx)
	clear(sy)
	for y := 0; y*w < len(labels); y++ {
		row := labels[y*w : (y+1)*w]
		for x := 0; x < w; {
			l := row[x]
			end := x + 1
			for end < w && row[end] == l {
				end++
			}
			if l > 0 && int(l) < n {
				r := &rs[l]
				run := end - x
				r.area += run
				r.x0, r.x1 = min(r.x0, x), max(r.x1, end)
				r.y0, r.y1 = min(r.y0, y), max(r.y1, y+1)
				sx[l] += float64(run) * float64(x+end-1) / 2
				sy[l] += float64(run) * float64(y)
			}
			x = end
		}
	}
	for l := 1; l < n; l++ {
		if a := float64(rs[l].area); a > 0 {
			rs[l].cx, rs[l].cy = sx[l]/a, sy[l]/a
		}
	}
	return labels, rs
}
