package vision

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"sync"
)

// jpegCutShort reports whether data is a JPEG (it starts with the SOI
// marker) whose structure stops before its end-of-image marker: a file cut
// short by a copy or a camera still writing it. OpenCV decodes such a file
// without an error, its missing rows grey, which the detector would read as
// a table with disks cut off. The segments are walked by their lengths (an
// EXIF thumbnail, a complete JPEG of its own, lies inside one and is
// skipped), and each scan's coded data up to the next marker; whatever
// follows the end-of-image marker (a phone's appended video) is not
// looked at. Data that is not a JPEG is not judged (false).
func jpegCutShort(data []byte) bool {
	if len(data) < 2 || data[0] != 0xFF || data[1] != 0xD8 {
		return false
	}
	i := 2
	for {
		// A marker: 0xFF (fill bytes may repeat it), then its code.
		if i >= len(data) || data[i] != 0xFF {
			return true // the segments end, or run into bytes that are not a marker
		}
		for i < len(data) && data[i] == 0xFF {
			i++
		}
		if i >= len(data) {
			return true
		}
		code := data[i]
		i++
		switch {
		case code == 0xD9: // end of image
			return false
		case code == 0x01 || code >= 0xD0 && code <= 0xD7: // no length
			continue
		}
		if i+2 > len(data) {
			return true
		}
		n := int(data[i])<<8 | int(data[i+1])
		if n < 2 || i+n > len(data) {
			return true
		}
		i += n
		if code != 0xDA {
			continue
		}
		// Start of scan: coded data up to the next marker. Within it 0xFF
		// is followed by 0x00 (a stuffed byte) or a restart marker; any
		// other 0xFF starts a marker (fill bytes included: the outer loop
		// skips them).
		for {
			for i < len(data) && data[i] != 0xFF {
				i++
			}
			if i+1 >= len(data) {
				return true
			}
			if next := data[i+1]; next == 0x00 || next >= 0xD0 && next <= 0xD7 {
				i += 2
				continue
			}
			break // a marker: the outer loop reads it
		}
	}
}

// jpegDamaged returns, for a JPEG whose coded data is damaged (bytes
// overwritten in a copy, a bad sector), what is found wrong with it, and
// nil for any other data. OpenCV's decoder only warns on stderr (libjpeg's
// "Corrupt JPEG data"), or says nothing, and returns an image whose rows
// after the damage are garbage: a table with disks missing or false ones.
func jpegDamaged(data []byte) error {
	_, err := jpegInspect(data)
	return err
}

// jpegInspect checks a JPEG's coded data block by block (jpegScans), or,
// for a JPEG of a kind jpegScans does not walk (progressive), decodes it
// with Go's decoder, and returns what is found wrong, with the bytes of
// coded data left over after the blocks (-1 when not walked). The walk
// costs about 8 ms a 1080p frame, Go's decoder some 20 to 40. A feature
// Go's decoder does not support (arithmetic coding, 12 bits) is no
// damage: OpenCV judges it. Nor is a missing Huffman table segment, as in
// the frames of many Motion JPEG cameras: the decoders take the standard
// tables then (jpegWithHuffman). Data that is not a JPEG is not judged:
// -1, nil.
func jpegInspect(data []byte) (extra int, err error) {
	if len(data) < 2 || data[0] != 0xFF || data[1] != 0xD8 {
		return -1, nil
	}
	if extra, err = jpegScans(data); err != nil || extra >= 0 {
		return extra, err
	}
	_, err = jpeg.Decode(bytes.NewReader(jpegWithHuffman(data)))
	var format jpeg.FormatError
	if errors.As(err, &format) {
		return -1, err
	}
	return -1, nil
}

// jpegWithHuffman returns data, a JPEG, with the standard Huffman tables
// (ITU T.81 Annex K.3, which libjpeg and ffmpeg assume when a frame has
// none) put after its start marker when no table segment (DHT) comes
// before its first scan; otherwise, or for data it cannot walk, data
// itself.
func jpegWithHuffman(data []byte) []byte {
	i := 2
	for i+4 <= len(data) && data[i] == 0xFF {
		code := data[i+1]
		switch {
		case code == 0xC4: // a table: nothing to add
			return data
		case code == 0xDA: // the first scan, no table before it
			dht := standardDHT()
			if dht == nil {
				return data
			}
			out := make([]byte, 0, len(data)+len(dht))
			out = append(append(append(out, data[:2]...), dht...), data[2:]...)
			return out
		case code == 0xFF: // a fill byte
			i++
			continue
		case code == 0x01 || code >= 0xD0 && code <= 0xD8: // no length
			i += 2
			continue
		}
		i += 2 + (int(data[i+2])<<8 | int(data[i+3]))
	}
	return data
}

// standardDHT is the segment of the four standard Huffman tables, taken
// from a JPEG Go's encoder writes (it writes these and no others).
var standardDHT = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 8, 8)), nil); err != nil {
		return nil
	}
	data := b.Bytes()
	i := bytes.Index(data, []byte{0xFF, 0xC4})
	if i < 0 || i+4 > len(data) {
		return nil
	}
	n := int(data[i+2])<<8 | int(data[i+3])
	if i+2+n > len(data) {
		return nil
	}
	return bytes.Clone(data[i : i+2+n])
})
