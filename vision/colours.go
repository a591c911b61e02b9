package vision

// #cgo CXXFLAGS: --std=c++11 -O3
// #include "colours.h"
import "C"

import (
	"fmt"
	"math"
	"unsafe"

	"gocv.io/x/gocv"
)

// How a pixel is matched to a token kind's colour
//
// A chit of a catalogue colour is seen brighter or darker than that
// colour: the lamp is stronger in the middle of the table than at its
// corners, a disk's shadow falls on part of it, the camera sets its own
// exposure. Light scales a colour toward black (all of r, g and b by one
// factor, in sRGB as in linear light, up to the gamma's toe), which in
// Lab lowers lightness and chroma together: a darkened orange is a brown,
// not an orange of lower lightness. So a kind's colours are the ray from
// black through its catalogue colour, from tokenDarkest to tokenBrightest
// of it, with a small tolerance around each point of the ray for the
// camera's noise, its white balance and the chit's print.
//
// The test is a table over OpenCV's 8-bit Lab, in cells of
// colourCell each way, with one bit for each kind: a frame's pixels are
// classified by one lookup each, for all kinds at once.

// Brightness of a chit relative to its catalogue colour (a factor on its
// sRGB values): from a chit at the table's dim corner (the lightness
// tolerance reaches a little darker, into soft shadow) to one under the
// lamp's bright spot. Longer rays take in more of the disks' printed art
// than they find chits. A grey chit's ray is every grey, so its range is
// narrower: dark grey chits and white ones, tables and rims, are told
// apart by their lightness.
const (
	tokenDarkest       = 0.7
	tokenBrightest     = 1.15
	tokenGreyDarkest   = 0.75
	tokenGreyBrightest = 1.15
)

// Tolerances around each point of a kind's ray, in 8-bit Lab units:
// lightness, and each of a and b.
const (
	tokenTolL      = 24.0
	tokenTolAB     = 11.0
	tokenGreyTolL  = 22.0
	tokenGreyTolAB = 8.0
)

// colourCell is the side of a cell of the colour table, in 8-bit Lab
// units (1 << colourShift); colourCells is the number of cells each way.
const (
	colourShift = 2
	colourCell  = 1 << colourShift
	colourCells = 256 / colourCell
)

// maxTokenKinds is the most kinds a token catalogue may hold: the colour
// table has a bit for each.
const maxTokenKinds = 64

// colourTable classifies 8-bit Lab pixels by the token kinds whose
// colours they may be.
type colourTable struct {
	bits []uint64 // by cell: L, then a, then b
}

// newColourTable builds the table of the given kinds, in catalogue order.
func newColourTable(kinds []TokenKind) (colourTable, error) {
	if len(kinds) > maxTokenKinds {
		return colourTable{}, fmt.Errorf("token catalogue: %d kinds, at most %d", len(kinds), maxTokenKinds)
	}
	t := colourTable{bits: make([]uint64, colourCells*colourCells*colourCells)}
	for ki, k := range kinds {
		lo, hi, tl, tab := tokenDarkest, tokenBrightest, tokenTolL, tokenTolAB
		if colourless(k.Colour) {
			lo, hi, tl, tab = tokenGreyDarkest, tokenGreyBrightest, tokenGreyTolL, tokenGreyTolAB
		}
		bit := uint64(1) << ki
		// Steps along the ray fine enough that the boxes around them
		// overlap (a step moves lightness by a few units at most).
		for s := lo; s <= hi+1e-9; s += 0.01 {
			c := [3]float64{min(255, s*k.Colour[0]), min(255, s*k.Colour[1]), min(255, s*k.Colour[2])}
			l, a, b := rgbToLab(c)
			cl0, cl1 := cellRange(l, tl)
			ca0, ca1 := cellRange(a, tab)
			cb0, cb1 := cellRange(b, tab)
			for cl := cl0; cl <= cl1; cl++ {
				for ca := ca0; ca <= ca1; ca++ {
					row := t.bits[(cl*colourCells+ca)*colourCells:]
					for cb := cb0; cb <= cb1; cb++ {
						row[cb] |= bit
					}
				}
			}
		}
	}
	return t, nil
}

// cellRange is the range of cells whose centres lie within tol of v.
func cellRange(v, tol float64) (int, int) {
	// A cell c holds values c*colourCell .. (c+1)*colourCell-1; its
	// centre is c*colourCell + (colourCell-1)/2.
	const half = (colourCell - 1) / 2.0
	c0 := int(math.Ceil((v - tol - half) / colourCell))
	c1 := int(math.Floor((v + tol - half) / colourCell))
	return max(0, c0), min(colourCells-1, c1)
}

// kinds returns the bits of the kinds whose colours 8-bit Lab (l, a, b)
// may be.
func (t *colourTable) kinds(l, a, b uint8) uint64 {
	return t.bits[(int(l>>colourShift)*colourCells+int(a>>colourShift))*colourCells+int(b>>colourShift)]
}

// kindsOf is kinds for a Lab colour in floating point (rgbToLab's).
func (t *colourTable) kindsOf(l, a, b float64) uint64 {
	q := func(v float64) uint8 { return uint8(max(0, min(255, math.Round(v)))) }
	return t.kinds(q(l), q(a), q(b))
}

// masks sets, for each kind, its mask's pixel to 255 where the 8-bit Lab
// image lab (three bytes a pixel) may be of the kind's colour, else 0.
// Every mask holds a byte for each pixel of lab; masks are C memory (a
// Mat's data). In C++: twice as fast as in Go.
func (t *colourTable) masks(lab []byte, masks [][]byte) {
	n := len(lab) / 3
	if n == 0 || len(masks) == 0 {
		return
	}
	ptrs := make([]*C.uchar, len(masks))
	for i, m := range masks {
		if len(m) < n {
			return
		}
		ptrs[i] = (*C.uchar)(unsafe.Pointer(&m[0]))
	}
	C.tableref_classify((*C.uchar)(unsafe.Pointer(&lab[0])), C.int(n), (*C.ulonglong)(unsafe.Pointer(&t.bits[0])),
		colourShift, colourCells, &ptrs[0], C.int(len(masks)))
}

// kindPixels classifies the detection-size Lab frame by token kind: one
// mask for each kind of the catalogue, 255 where a pixel may be of the
// kind's colour. The masks are the detector's, kept from frame to frame.
func (d *Detector) kindPixels() ([]gocv.Mat, error) {
	w, h := d.small.Cols(), d.small.Rows()
	d.rawMasks = matSet(d.rawMasks, len(d.opt.Tokens))
	lab, err := d.small.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	bufs := make([][]byte, len(d.rawMasks))
	for i, m := range d.rawMasks {
		if m.Cols() != w || m.Rows() != h || m.Type() != gocv.MatTypeCV8U {
			m.Close()
			d.rawMasks[i] = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
		}
		if bufs[i], err = d.rawMasks[i].DataPtrUint8(); err != nil {
			return nil, err
		}
	}
	d.colours.masks(lab, bufs)
	return d.rawMasks, nil
}
