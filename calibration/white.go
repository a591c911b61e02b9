package calibration

import (
	"math"
	"slices"
)

// BoardWhite returns the grey level (0-255) of the white squares of the
// chessboard whose inner corners (cols x rows, row by row, as FindCorners
// returns them) were found in g: the median over the squares between
// inner corners of each one's middle, of the brighter of the two colours.
// A board printed on white paper, lying on the table, is a surface of
// known whiteness under the game's light: how bright the camera sees it
// says how the camera is exposed. 0 when it cannot be read.
func BoardWhite(g Gray, board Board, corners []Pixel) float64 {
	cols, rows := board.Cols, board.Rows
	if len(corners) != cols*rows || cols < 2 || rows < 2 || len(g.Pix) < g.Width*g.Height {
		return 0
	}
	var even, odd []float64
	for j := 0; j+1 < rows; j++ {
		for i := 0; i+1 < cols; i++ {
			a, b := corners[j*cols+i], corners[j*cols+i+1]
			c, d := corners[(j+1)*cols+i], corners[(j+1)*cols+i+1]
			u, v := (a.U+b.U+c.U+d.U)/4, (a.V+b.V+c.V+d.V)/4
			// A patch a fifth of the square across, around its middle.
			side := math.Min(math.Hypot(b.U-a.U, b.V-a.V), math.Hypot(c.U-a.U, c.V-a.V))
			r := max(0, int(side/10))
			var sum float64
			n := 0
			for y := int(v) - r; y <= int(v)+r; y++ {
				for x := int(u) - r; x <= int(u)+r; x++ {
					if x < 0 || y < 0 || x >= g.Width || y >= g.Height {
						continue
					}
					sum += float64(g.Pix[y*g.Width+x])
					n++
				}
			}
			if n == 0 {
				continue
			}
			if (i+j)%2 == 0 {
				even = append(even, sum/float64(n))
			} else {
				odd = append(odd, sum/float64(n))
			}
		}
	}
	if len(even) == 0 || len(odd) == 0 {
		return 0
	}
	e, o := median(even), median(odd)
	return max(e, o)
}

// median returns the median of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
