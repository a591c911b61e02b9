package vision

import (
	"errors"
	"fmt"
)

// jpegScans walks the Huffman-coded data of a sequential JPEG (the kind
// cameras and most encoders write) block by block, without decoding the
// pixels, and returns what is wrong when the coded data cannot make the
// image's blocks: a code no table holds, a block of more than 64
// coefficients, data that ends before the last block, a restart marker
// missing. Bytes overwritten in the middle of a frame (a bad copy, a bad
// sector) most often do one of these.
//
// It also returns how many bytes of coded data were left over after the
// blocks (before each restart marker and before the marker that ends the
// scans). Overwritten bytes may do only that: Huffman codes fall back
// into step after the damage, the blocks counted off by a few, the image
// garbled from there on. But sound images have such bytes too (many
// cameras leave a few before each marker, some scanners hundreds), which
// libjpeg warns of and decodes; alone they are no proof (see
// captureSource).
//
// Data that is not such a JPEG (progressive, arithmetic-coded, lossless,
// or not a JPEG) is not judged: -1 and nil; nor is one whose segments
// cannot be walked (jpegCutShort and Go's decoder say why).
func jpegScans(data []byte) (extra int, err error) {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return -1, nil
	}
	w := &jpegWalk{data: data}
	err = w.walk()
	if errors.Is(err, errNotJudged) {
		return -1, nil
	}
	return w.extra, err
}

// errNotJudged ends a walk over a JPEG of a kind jpegScans does not
// judge, or whose segments cannot be walked (other checks say why).
var errNotJudged = errors.New("not judged")

type jpegComponent struct {
	id, h, v int
}

// jpegHuffman is a table as decoded by ITU T.81 figure F.16.
type jpegHuffman struct {
	defined bool
	maxCode [17]int32 // the largest code of each length, -1 for none
	valPtr  [17]int32 // index in vals of the first code of each length
	minCode [17]int32
	vals    []byte
}

type jpegWalk struct {
	data       []byte
	frame      []jpegComponent
	width      int
	height     int
	restart    int
	dc, ac     [4]jpegHuffman
	hmax, vmax int
	extra      int // bytes of coded data left over after the blocks

	// The bit reader of a scan.
	pos   int    // the next byte of data
	bits  uint32 // bits read, not yet used, in the low nbits
	nbits int
}

func (w *jpegWalk) walk() error {
	i := 2
	for {
		if i >= len(w.data) || w.data[i] != 0xFF {
			return errNotJudged // jpegCutShort's and Go's decoder's to say
		}
		for i < len(w.data) && w.data[i] == 0xFF {
			i++
		}
		if i >= len(w.data) {
			return errNotJudged
		}
		code := w.data[i]
		i++
		switch {
		case code == 0xD9:
			return nil
		case code == 0x01 || code >= 0xD0 && code <= 0xD8:
			continue
		}
		if i+2 > len(w.data) {
			return errNotJudged
		}
		n := int(w.data[i])<<8 | int(w.data[i+1])
		if n < 2 || i+n > len(w.data) {
			return errNotJudged
		}
		seg := w.data[i+2 : i+n]
		i += n
		var err error
		switch {
		case code == 0xC0 || code == 0xC1: // sequential, Huffman-coded
			err = w.readFrame(seg)
		case code >= 0xC2 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC:
			return errNotJudged // progressive, lossless, arithmetic
		case code == 0xC4:
			err = w.readTables(seg)
		case code == 0xDD:
			if len(seg) < 2 {
				return errNotJudged
			}
			w.restart = int(seg[0])<<8 | int(seg[1])
		case code == 0xDA:
			i, err = w.scan(seg, i)
		}
		if err != nil {
			return err
		}
	}
}

func (w *jpegWalk) readFrame(seg []byte) error {
	if w.frame != nil || len(seg) < 6 {
		return errNotJudged
	}
	w.height = int(seg[1])<<8 | int(seg[2])
	w.width = int(seg[3])<<8 | int(seg[4])
	nc := int(seg[5])
	if w.width == 0 || w.height == 0 || nc == 0 || len(seg) < 6+3*nc {
		return errNotJudged // a height given later (DNL), or nonsense
	}
	for k := range nc {
		c := jpegComponent{id: int(seg[6+3*k]), h: int(seg[7+3*k] >> 4), v: int(seg[7+3*k] & 15)}
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 {
			return errNotJudged
		}
		w.hmax, w.vmax = max(w.hmax, c.h), max(w.vmax, c.v)
		w.frame = append(w.frame, c)
	}
	return nil
}

func (w *jpegWalk) readTables(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return errNotJudged
		}
		class, id := seg[0]>>4, seg[0]&15
		if class > 1 || id > 3 {
			return errNotJudged
		}
		total := 0
		for _, c := range seg[1:17] {
			total += int(c)
		}
		if total == 0 || total > 256 || len(seg) < 17+total {
			return errNotJudged
		}
		t := &w.dc[id]
		if class == 1 {
			t = &w.ac[id]
		}
		*t = jpegHuffman{defined: true, vals: seg[17 : 17+total]}
		code, k := int32(0), int32(0)
		for l := 1; l <= 16; l++ {
			n := int32(seg[l])
			t.valPtr[l], t.minCode[l], t.maxCode[l] = k, code, -1
			if n > 0 {
				t.maxCode[l] = code + n - 1
			}
			code, k = (code+n)<<1, k+n
		}
		seg = seg[17+total:]
	}
	return nil
}

// scan walks the coded data of the scan whose header is seg and which
// starts at data[start], and returns where its data ends (the next
// marker).
func (w *jpegWalk) scan(seg []byte, start int) (int, error) {
	if w.frame == nil || len(seg) < 1 {
		return 0, errNotJudged
	}
	ns := int(seg[0])
	if ns < 1 || ns > 4 || len(seg) < 1+2*ns+3 {
		return 0, errNotJudged
	}
	if !w.dc[0].defined && !w.ac[0].defined {
		// Many cameras' frames have no tables: the standard ones hold.
		if dht := standardDHT(); len(dht) > 4 {
			if err := w.readTables(dht[4:]); err != nil {
				return 0, err
			}
		}
	}
	type scanComp struct {
		c      jpegComponent
		dc, ac *jpegHuffman
	}
	var comps []scanComp
	for k := range ns {
		id, td, ta := int(seg[1+2*k]), int(seg[2+2*k]>>4), int(seg[2+2*k]&15)
		found := false
		for _, c := range w.frame {
			if c.id == id && td < 4 && ta < 4 && w.dc[td].defined && w.ac[ta].defined {
				comps, found = append(comps, scanComp{c, &w.dc[td], &w.ac[ta]}), true
				break
			}
		}
		if !found {
			return 0, errNotJudged // Go's decoder says what is wrong
		}
	}
	// MCUs: interleaved, each holds h x v blocks of each component;
	// one component alone, one block each (ITU T.81 A.2).
	mcus, blocks := 0, make([]int, ns)
	if ns == 1 {
		c := comps[0].c
		bw := ceilDiv(ceilDiv(w.width*c.h, w.hmax), 8)
		bh := ceilDiv(ceilDiv(w.height*c.v, w.vmax), 8)
		mcus, blocks[0] = bw*bh, 1
	} else {
		mcus = ceilDiv(w.width, 8*w.hmax) * ceilDiv(w.height, 8*w.vmax)
		for k, sc := range comps {
			blocks[k] = sc.c.h * sc.c.v
		}
	}
	w.pos, w.bits, w.nbits = start, 0, 0
	for m := range mcus {
		if w.restart > 0 && m > 0 && m%w.restart == 0 {
			if err := w.restartMarker(m/w.restart - 1); err != nil {
				return 0, err
			}
		}
		for k, sc := range comps {
			for range blocks[k] {
				if err := w.block(sc.dc, sc.ac); err != nil {
					return 0, fmt.Errorf("in block %d of %d: %w", m+1, mcus, err)
				}
			}
		}
	}
	return w.skipToMarker(), nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// restartMarker expects restart marker n (mod 8) at the end of an
// interval's coded data; bytes before it are counted as left over.
func (w *jpegWalk) restartMarker(n int) error {
	w.bits, w.nbits = 0, 0
	at := w.skipToMarker()
	if at+1 >= len(w.data) || w.data[at+1] != byte(0xD0+n%8) {
		return fmt.Errorf("restart marker %d missing where an interval of %d blocks ends", n%8, w.restart)
	}
	w.pos = at + 2
	return nil
}

// skipToMarker counts the bytes of coded data from w.pos to the next
// marker as left over, and returns where the marker starts.
func (w *jpegWalk) skipToMarker() int {
	at := w.pos
	for at < len(w.data) {
		if w.data[at] == 0xFF && at+1 < len(w.data) && w.data[at+1] != 0x00 {
			break
		}
		if w.data[at] == 0xFF {
			at++
		}
		at++
		w.extra++
	}
	return at
}

// block walks one 8x8 block's codes: the DC difference, then the AC
// coefficients, run-length coded up to the end of block.
func (w *jpegWalk) block(dc, ac *jpegHuffman) error {
	s, err := w.decode(dc)
	if err != nil {
		return err
	}
	if s > 16 {
		return fmt.Errorf("a DC difference of %d bits", s)
	}
	if err := w.skip(int(s)); err != nil {
		return err
	}
	for k := 1; k < 64; {
		rs, err := w.decode(ac)
		if err != nil {
			return err
		}
		r, s := int(rs>>4), int(rs&15)
		if s == 0 {
			if r != 15 {
				return nil // end of block
			}
			k += 16
			continue
		}
		k += r
		if k > 63 {
			return errors.New("more than 64 coefficients in a block")
		}
		if err := w.skip(s); err != nil {
			return err
		}
		k++
	}
	return nil
}

var errCodedDataEnds = errors.New("the coded data ends before the image does")

// bit returns the next bit of the coded data.
func (w *jpegWalk) bit() (uint32, error) {
	if w.nbits == 0 {
		if w.pos >= len(w.data) {
			return 0, errCodedDataEnds
		}
		b := w.data[w.pos]
		if b == 0xFF {
			if w.pos+1 >= len(w.data) || w.data[w.pos+1] != 0x00 {
				return 0, errCodedDataEnds // a marker
			}
			w.pos++
		}
		w.pos++
		w.bits, w.nbits = uint32(b), 8
	}
	w.nbits--
	return w.bits >> w.nbits & 1, nil
}

func (w *jpegWalk) skip(n int) error {
	for range n {
		if _, err := w.bit(); err != nil {
			return err
		}
	}
	return nil
}

// decode reads one Huffman code of table t and returns its value.
func (w *jpegWalk) decode(t *jpegHuffman) (byte, error) {
	code := int32(0)
	for l := 1; l <= 16; l++ {
		b, err := w.bit()
		if err != nil {
			return 0, err
		}
		code = code<<1 | int32(b)
		if code <= t.maxCode[l] {
			return t.vals[t.valPtr[l]+code-t.minCode[l]], nil
		}
	}
	return 0, errors.New("a code that is in no Huffman table")
}
