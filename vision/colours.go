package vision

// #cgo CXXFLAGS: --std=c++11 -O3
// #include "colours.h"
import "C"

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
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
// camera's noise, its white balance and the chit's print. Where the
// table shows the lamp's light to be stronger or weaker than its typical
// light (light.go), the ray of a kind of a colour is scaled by that light.
//
// The test is a table over OpenCV's 8-bit Lab, in cells of colourCell
// each way, with one bit for each kind, one table for each level of light
// (lightStep apart): a frame's pixels are classified by one lookup each,
// for all kinds at once, in the table of the light of their block of
// lightBlock pixels.

// Brightness of a chit relative to its catalogue colour (a factor on its
// sRGB values) under the light around it: from a chit in a disk's soft
// shadow (the lightness tolerance reaches a little darker) to one under
// a brighter exposure. Longer rays take in more of the disks' printed art
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
// colours they may be, under the light at the pixel (light.go): a table
// for each light level, lightStep apart, built when first used. A table
// is read-only once a level is built, so one is shared by every detector
// of a catalogue of the same colours (sharedColourTables): a stream's
// workers, the detectors of a benchmark, the tests. Its 27 levels take 56
// MB that a new detector would otherwise allocate and clear, about 100 ms
// of a stream's start; the cache keeps a table for later detectors, so
// its memory stays with the process (only the levels built are touched).
type colourTable struct {
	colours [][3]float64 // the kinds' colours, in catalogue order
	bits    []uint64     // by level, then cell: L, then a, then b
	once    *[lightLevels]sync.Once
}

// sharedColourTables holds the colour tables built so far, by their
// kinds' colours (colourKey). It is cleared when it holds maxSharedTables:
// the detectors using a table keep it.
var sharedColourTables struct {
	sync.Mutex
	byKey map[string]colourTable
}

// maxSharedTables is the most colour tables sharedColourTables keeps.
const maxSharedTables = 4

// colourKey is what a colour table depends on: its kinds' colours, in
// order (a kind's bit is its index).
func colourKey(kinds []TokenKind) string {
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "%g,%g,%g;", k.Colour[0], k.Colour[1], k.Colour[2])
	}
	return b.String()
}

// Light levels of the colour table: level i is a light of
// lightStep^(i-lightLevelOne) of the frame's typical light, from
// lightLeast to lightMost.
const (
	lightStep     = 1.06
	lightLevelOne = 16
	lightLevels   = 27
)

// lightLevel is the level of the colour table nearest light g.
func lightLevel(g float64) int {
	if !(g > 0) {
		return lightLevelOne
	}
	i := int(math.Round(math.Log(g)/math.Log(lightStep))) + lightLevelOne
	return min(max(i, 0), lightLevels-1)
}

// tableCells is the number of cells of one level of the colour table.
const tableCells = colourCells * colourCells * colourCells

// newColourTable returns the table of the given kinds, in catalogue
// order: the one already built for kinds of the same colours, if any.
func newColourTable(kinds []TokenKind) (colourTable, error) {
	if len(kinds) > maxTokenKinds {
		return colourTable{}, fmt.Errorf("token catalogue: %d kinds, at most %d", len(kinds), maxTokenKinds)
	}
	key := colourKey(kinds)
	shared := &sharedColourTables
	shared.Lock()
	defer shared.Unlock()
	if t, ok := shared.byKey[key]; ok {
		return t, nil
	}
	if shared.byKey == nil || len(shared.byKey) >= maxSharedTables {
		shared.byKey = map[string]colourTable{}
	}
	colours := make([][3]float64, len(kinds))
	for i, k := range kinds {
		colours[i] = k.Colour
	}
	// All levels in one slice, so that C is handed one Go pointer; a
	// level's pages are touched only once it is built.
	t := colourTable{colours: colours, bits: make([]uint64, lightLevels*tableCells), once: new([lightLevels]sync.Once)}
	shared.byKey[key] = t
	return t, nil
}

// level returns the table of light level i, building it on first use
// (once, whichever detector asks first; the others wait for it): a
// kind's ray under light g runs from g times tokenDarkest to g times
// tokenBrightest of its colour. A grey kind's does not move with the
// light: greys are told apart by lightness alone, chits from the grey
// tables, rims and labels around them, and measured on the benchmark's
// scenes, moving their rays with the light lost as many grey chits as it
// found and read a grey tile's joint as a bolt.
func (t *colourTable) level(i int) []uint64 {
	bits := t.bits[i*tableCells : (i+1)*tableCells]
	t.once[i].Do(func() { t.build(i, bits) })
	return bits
}

// build fills bits, the table of light level i.
func (t *colourTable) build(i int, bits []uint64) {
	g := math.Pow(lightStep, float64(i-lightLevelOne))
	for ki, colour := range t.colours {
		lo, hi, tl, tab, g := tokenDarkest, tokenBrightest, tokenTolL, tokenTolAB, g
		if colourless(colour) {
			lo, hi, tl, tab, g = tokenGreyDarkest, tokenGreyBrightest, tokenGreyTolL, tokenGreyTolAB, 1
		}
		bit := uint64(1) << ki
		// Steps along the ray fine enough that the boxes around them
		// overlap (a step moves lightness by a few units at most).
		for s := lo; s <= hi+1e-9; s += 0.01 {
			c := [3]float64{min(255, g*s*colour[0]), min(255, g*s*colour[1]), min(255, g*s*colour[2])}
			l, a, b := rgbToLab(c)
			cl0, cl1 := cellRange(l, tl)
			ca0, ca1 := cellRange(a, tab)
			cb0, cb1 := cellRange(b, tab)
			for cl := cl0; cl <= cl1; cl++ {
				for ca := ca0; ca <= ca1; ca++ {
					row := bits[(cl*colourCells+ca)*colourCells:]
					for cb := cb0; cb <= cb1; cb++ {
						row[cb] |= bit
					}
				}
			}
		}
	}
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
// may be under the frame's typical light.
func (t *colourTable) kinds(l, a, b uint8) uint64 {
	return t.kindsUnder(lightLevelOne, l, a, b)
}

// kindsUnder is kinds under light level i.
func (t *colourTable) kindsUnder(i int, l, a, b uint8) uint64 {
	return t.level(i)[(int(l>>colourShift)*colourCells+int(a>>colourShift))*colourCells+int(b>>colourShift)]
}

// kindsOf is kinds for a Lab colour in floating point (rgbToLab's).
func (t *colourTable) kindsOf(l, a, b float64) uint64 {
	q := func(v float64) uint8 { return uint8(max(0, min(255, math.Round(v)))) }
	return t.kinds(q(l), q(a), q(b))
}

// masks sets, for each kind, its mask's pixel to 255 where the 8-bit Lab
// image lab (three bytes a pixel, w a row) may be of the kind's colour
// under the light there, else 0. The light is given by level, one for
// each block x block pixels (rows of ceil(w / block)); nil is the
// typical light everywhere. Every mask holds a byte for each pixel of
// lab; masks are C memory (a Mat's data). In C++: twice as fast as in Go.
func (t *colourTable) masks(lab []byte, w int, level []uint8, block int, masks [][]byte) {
	n := len(lab) / 3
	if n == 0 || w <= 0 || len(masks) == 0 {
		return
	}
	h := n / w
	bw := (w + block - 1) / block
	if level == nil {
		block, bw = w, 1
		level = make([]uint8, (h+block-1)/block)
		for i := range level {
			level[i] = lightLevelOne
		}
	}
	if len(level) < bw*((h+block-1)/block) {
		return
	}
	for _, i := range level {
		t.level(int(i))
	}
	ptrs := make([]*C.uchar, len(masks))
	for i, m := range masks {
		if len(m) < n {
			return
		}
		ptrs[i] = (*C.uchar)(unsafe.Pointer(&m[0]))
	}
	C.tableref_classify((*C.uchar)(unsafe.Pointer(&lab[0])), C.int(w), C.int(h),
		(*C.ulonglong)(unsafe.Pointer(&t.bits[0])), C.int(tableCells),
		(*C.uchar)(unsafe.Pointer(&level[0])), C.int(block), C.int(bw),
		colourShift, colourCells, &ptrs[0], C.int(len(masks)))
}

// kindPixels classifies the detection-size Lab frame by token kind: one
// mask for each kind of the catalogue, 255 where a pixel may be of the
// kind's colour. The masks are the detector's, kept from frame to frame.
func (d *Detector) kindPixels() ([]gocv.Mat, error) {
	small := d.small
	if d.stretched {
		small = d.unstretched
	}
	w, h := small.Cols(), small.Rows()
	d.rawMasks = matSet(d.rawMasks, len(d.opt.Tokens))
	lab, err := small.DataPtrUint8()
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
	d.colours.masks(lab, w, d.lightByBlock(w, h), lightBlock, bufs)
	return d.rawMasks, nil
}

// lightBlock is the side, in detection pixels, of a block of one light
// level in the colour masks.
const lightBlock = 32

// lightByBlock returns the colour table's light level for each block of
// lightBlock detection pixels of the w x h detection frame, from the
// detector's light field (nil where the light is even).
func (d *Detector) lightByBlock(w, h int) []uint8 {
	if len(d.light.gain) == 0 {
		return nil
	}
	bw, bh := (w+lightBlock-1)/lightBlock, (h+lightBlock-1)/lightBlock
	d.blockLevels = slices.Grow(d.blockLevels[:0], bw*bh)[:bw*bh]
	s := d.plane.scale
	for by := range bh {
		fy := (float64(by*lightBlock) + lightBlock/2.0) * s
		for bx := range bw {
			fx := (float64(bx*lightBlock) + lightBlock/2.0) * s
			d.blockLevels[by*bw+bx] = uint8(lightLevel(d.light.at(fx, fy)))
		}
	}
	return d.blockLevels
}
