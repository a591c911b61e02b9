package vision

import (
	"bytes"
	"errors"
	"image/jpeg"
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
// overwritten in a copy, a bad sector), what Go's decoder finds wrong
// with it, and nil for any other data. OpenCV's decoder only warns on
// stderr (libjpeg's "Corrupt JPEG data"), and returns an image whose rows
// after the damage are garbage: a table with disks missing or false ones.
// A feature Go's decoder does not support (arithmetic coding, 12 bits) is
// no damage: OpenCV judges it.
func jpegDamaged(data []byte) error {
	if len(data) < 2 || data[0] != 0xFF || data[1] != 0xD8 {
		return nil
	}
	_, err := jpeg.Decode(bytes.NewReader(data))
	var format jpeg.FormatError
	if errors.As(err, &format) {
		return err
	}
	return nil
}
