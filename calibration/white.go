package calibration

import (
	"fmt"
	"image"
	"math"
	"os"
	"slices"

	"gocv.io/x/gocv"
)

// BoardWhite returns the grey level (0-255) of the white squares of the
// chessboard whose inner corners (cols x rows, row by row, as FindCorners
// returns them) were found in g: the median over the squares between
// inner corners of each one's middle, of the brighter of the two colours.
// A board printed on white paper, lying on the table, is a surface of
// known whiteness under the game's light: how bright the camera sees it
// says how the camera is exposed. 0 when it cannot be read, and when the
// white squares are unevenly lit (the brightest tenth over the darkest
// tenth beyond whiteSpreadMost: a shadow across the board, a glare), since
// their median may then be the shadow's.
func BoardWhite(g Gray, board Board, corners []Pixel) float64 {
	white := whiteSquares(g, board, corners)
	if len(white) == 0 {
		return 0
	}
	slices.Sort(white)
	lo, hi := white[len(white)/10], white[len(white)-1-len(white)/10]
	if !(lo > 0) || hi/lo > whiteSpreadMost {
		return 0
	}
	return median(white)
}

// whiteSpreadMost is how much brighter the brightest tenth of a board's
// white squares may be than the darkest tenth for their median to say how
// the camera is exposed. Rendered board views, lit by the tiers' lamps
// with vignetting, read up to 1.20; a shadow over 60 % of a board, 2.
const whiteSpreadMost = 1.4

// whiteSquares returns the middles' grey of the board's white squares
// (the brighter of the two colours by median), nil when they cannot be
// read.
func whiteSquares(g Gray, board Board, corners []Pixel) []float64 {
	cols, rows := board.Cols, board.Rows
	if len(corners) != cols*rows || cols < 2 || rows < 2 || len(g.Pix) < g.Width*g.Height {
		return nil
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
		return nil
	}
	if median(slices.Clone(even)) >= median(slices.Clone(odd)) {
		return even
	}
	return odd
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

// Channels are an image's red, green and blue planes, each as a Gray.
type Channels [3]Gray

// ChannelsFromImage splits any image into its red, green and blue planes.
func ChannelsFromImage(img image.Image) Channels {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	var ch Channels
	for c := range ch {
		ch[c] = Gray{Width: w, Height: h, Pix: make([]byte, w*h)}
	}
	for y := range h {
		for x := range w {
			r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			i := y*w + x
			ch[0].Pix[i], ch[1].Pix[i], ch[2].Pix[i] = byte(r>>8), byte(g>>8), byte(bl>>8)
		}
	}
	return ch
}

// ReadChannels reads an image file's red, green and blue planes, decoded
// as ReadGray decodes.
func ReadChannels(path string) (Channels, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Channels{}, fmt.Errorf("%w: %v", ErrImage, err)
	}
	if err := CheckImageSize(data, path); err != nil {
		return Channels{}, err
	}
	m, err := gocv.IMDecode(data, gocv.IMReadColor)
	defer m.Close()
	if err != nil || m.Empty() {
		return Channels{}, fmt.Errorf("%s: %w (missing, not an image, or a format OpenCV cannot decode)", path, ErrImage)
	}
	b, err := m.DataPtrUint8()
	w, h := m.Cols(), m.Rows()
	if err != nil || len(b) != 3*w*h {
		return Channels{}, fmt.Errorf("%s: %w: unexpected pixel layout", path, ErrImage)
	}
	var ch Channels
	for c := range ch {
		ch[c] = Gray{Width: w, Height: h, Pix: make([]byte, w*h)}
	}
	for i := range w * h {
		// OpenCV's order is blue, green, red.
		ch[0].Pix[i], ch[1].Pix[i], ch[2].Pix[i] = b[3*i+2], b[3*i+1], b[3*i]
	}
	return ch, nil
}

// BoardWhiteRGB returns BoardWhite of each of the red, green and blue
// planes: the colour of the board's white paper under the game's light.
// Zeros when it cannot be read.
func BoardWhiteRGB(ch Channels, board Board, corners []Pixel) [3]float64 {
	var out [3]float64
	for c := range ch {
		if out[c] = BoardWhite(ch[c], board, corners); out[c] == 0 {
			return [3]float64{}
		}
	}
	return out
}
