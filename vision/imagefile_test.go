package vision

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
	"golang.org/x/image/bmp"
)

// heicHead is the start of a HEIC file (an iPhone's photograph): its
// ftyp box.
const heicHead = "\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"

func goodJPEG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 64, 48)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func goodGIF(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, image.NewRGBA(image.Rect(0, 0, 64, 48)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func goodBMP(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bmp.Encode(&b, image.NewRGBA(image.Rect(0, 0, 64, 48))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rleBMP returns the headers of an 8-bit run-length coded BMP claiming
// w x h pixels, which Go's decoder does not read, and its (empty) data.
func rleBMP(w, h int32) []byte {
	b := make([]byte, 54+4*256+2)
	copy(b, "BM")
	le := binary.LittleEndian
	le.PutUint32(b[2:], uint32(len(b)))
	le.PutUint32(b[10:], 54+4*256) // where the pixels start
	le.PutUint32(b[14:], 40)       // BITMAPINFOHEADER
	le.PutUint32(b[18:], uint32(w))
	le.PutUint32(b[22:], uint32(h))
	le.PutUint16(b[26:], 1)        // planes
	le.PutUint16(b[28:], 8)        // bits a pixel
	le.PutUint32(b[30:], 1)        // BI_RLE8
	le.PutUint32(b[46:], 256)      // colours
	copy(b[len(b)-2:], "\x00\x01") // end of bitmap
	return b
}

// TestImageFileSaysWhyItCannotBeRead: a file a folder holds that is no
// image OpenCV reads is skipped saying what it is and what to do, not
// "cannot be read" alone (nor left out without a word, a GIF or an
// iPhone's HEIC); an image of more pixels than any camera takes is refused
// before it is decoded (a JPEG of a few MB may hold 30000x30000 pixels: 10
// GB of memory, and OpenCV failing past 2 GB).
func TestImageFileSaysWhyItCannotBeRead(t *testing.T) {
	whole := goodPNG(t)
	cases := []struct {
		name string
		data []byte
		says string // "" for a frame read
	}{
		{"a-good.png", whole, ""},
		{"b-empty.jpg", nil, "is empty"},
		{"c-cut.png", whole[:len(whole)/2], "its PNG data ends before the image does"},
		{"d-cut-end.png", whole[:len(whole)-12], "its PNG data ends before the image does"},
		{"e-anim.gif", goodGIF(t), "a GIF image, which this program cannot read: convert it to JPEG or PNG"},
		{"f-iphone.heic", []byte(heicHead), "a HEIC image"},
		{"g-heic-named.jpg", []byte(heicHead), "a HEIC image"},
		{"h-notes.png", []byte("a shopping list"), "its content is not PNG, JPEG, BMP, TIFF or WebP"},
		{"i-cut.bmp", goodBMP(t)[:3000], "its BMP data is damaged or cut short"},
		{"j-300mp.jpg", claimingJPEG(t, 20000, 15000), "20000x15000 pixels (300 MP), more than the 268 MP"},
		{"k-rle.bmp", rleBMP(16500, 16500), "16500x16500 pixels (272 MP)"},
		{"l-good.jfif", goodJPEG(t), ""},
		{"m-good.bmp", goodBMP(t), ""},
	}
	files := map[string][]byte{}
	for _, c := range cases {
		files[c.name] = c.data
	}
	src := folderOf(t, files)
	m := gocv.NewMat()
	defer m.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := src.Next(&m)
			if got := filepath.Base(src.(*filesSource).Current()); got != c.name {
				t.Fatalf("read %s, want %s", got, c.name)
			}
			switch {
			case c.says == "" && err != nil:
				t.Errorf("got %v, want a frame", err)
			case c.says == "" && (m.Cols() != 64 || m.Rows() != 48):
				t.Errorf("got %dx%d, want 64x48", m.Cols(), m.Rows())
			case c.says != "" && (!errors.Is(err, ErrBadFrame) || !strings.Contains(err.Error(), c.name) || !strings.Contains(err.Error(), c.says)):
				t.Errorf("got %v, want a bad frame naming the file and saying %q", err, c.says)
			}
		})
	}
	if err := src.Next(&m); err != io.EOF {
		t.Fatalf("after the last file: %v, want io.EOF", err)
	}
}

// TestOpenTellsAnImageByItsContent: an image whose name does not end as an
// image's (Windows saves JPEGs as .jfif, Twitter as .jpg_large, a file may
// have no extension) is read; one OpenCV cannot read is refused saying
// what it is.
func TestOpenTellsAnImageByItsContent(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		data []byte
		says string // "" for an image read
	}{
		{"photo.jfif", goodJPEG(t), ""},
		{"photo.JPE", goodJPEG(t), ""},
		{"photo.jpg_large", goodJPEG(t), ""},
		{"photo", goodPNG(t), ""},
		{"scan.dat", goodBMP(t), ""},
		{"anim.gif", goodGIF(t), "a GIF image, which this program cannot read"},
		{"IMG_0001.HEIC", []byte(heicHead), "a HEIC image, which this program cannot read"},
		{"notes.txt", []byte("a shopping list"), "not an image (.png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := Open(path)
			if c.says != "" {
				if err == nil {
					src.Close()
				}
				if err == nil || !strings.Contains(err.Error(), c.says) {
					t.Errorf("Open: %v, want an error saying %q", err, c.says)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v, want an image", err)
			}
			defer src.Close()
			m := gocv.NewMat()
			defer m.Close()
			if err := src.Next(&m); err != nil || KindOf(src) != KindImage || m.Cols() != 64 {
				t.Errorf("got %v, kind %v, %d columns; want the 64x48 image", err, KindOf(src), m.Cols())
			}
		})
	}
}

// exifJPEG returns a 64x48 JPEG, a red square in its top left corner,
// with an EXIF orientation tag of o (1 to 8) as a phone writes when held
// sideways.
func exifJPEG(t *testing.T, o uint16) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			c := color.RGBA{40, 40, 40, 255}
			if x < 16 && y < 16 {
				c = color.RGBA{230, 20, 20, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	// APP1: "Exif\0\0", a little-endian TIFF header, one IFD of one
	// entry: Orientation (0x0112), SHORT, 1 value.
	tiff := []byte("II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	binary.LittleEndian.PutUint16(tiff[18:], o)
	app1 := append([]byte("Exif\x00\x00"), tiff...)
	seg := append([]byte{0xFF, 0xE1, byte((len(app1) + 2) >> 8), byte(len(app1) + 2)}, app1...)
	data := b.Bytes()
	return append(append(append([]byte{}, data[:2]...), seg...), data[2:]...)
}

// TestImageFileIsTurnedAsItsEXIFSays: a photograph taken with the phone
// held sideways is stored as the sensor saw it, with an EXIF orientation;
// its frame is the picture as the user sees it (OpenCV turns it), so px,
// py and the calibration's size check are in the orientation shown.
func TestImageFileIsTurnedAsItsEXIFSays(t *testing.T) {
	cases := []struct {
		orientation uint16
		w, h        int
		redX, redY  int // where the red corner is seen
	}{
		{1, 64, 48, 4, 4},
		{3, 64, 48, 59, 43},
		{6, 48, 64, 43, 4},  // turned 90 degrees clockwise
		{8, 48, 64, 4, 59},  // turned 90 degrees anticlockwise
		{2, 64, 48, 59, 4},  // mirrored
		{5, 48, 64, 4, 4},   // transposed
		{7, 48, 64, 43, 59}, // transposed the other way
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("orientation %d", c.orientation), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "phone.jpg")
			if err := os.WriteFile(path, exifJPEG(t, c.orientation), 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			m := gocv.NewMat()
			defer m.Close()
			if err := src.Next(&m); err != nil {
				t.Fatal(err)
			}
			if m.Cols() != c.w || m.Rows() != c.h {
				t.Fatalf("got %dx%d, want %dx%d", m.Cols(), m.Rows(), c.w, c.h)
			}
			if v := m.GetVecbAt(c.redY, c.redX); v[2] < 150 || v[1] > 100 {
				t.Errorf("pixel (%d, %d) is BGR %v, want the red corner", c.redX, c.redY, v)
			}
		})
	}
}

// FuzzImageHeaders: what is read of a file's first bytes never panics,
// and a PNG is cut short exactly when it ends before its IEND chunk.
func FuzzImageHeaders(f *testing.F) {
	whole := goodPNG(f)
	for _, seed := range [][]byte{whole, whole[:40], whole[:len(whole)-1], rleBMP(1, 1), []byte(heicHead), goodGIF(f), claimingJPEG(f, 9, 9), {}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		format := imageFormat(data)
		imageSize(data, format)
		if format != "PNG" {
			return
		}
		pngCutShort(data)
		if len(data) < len(whole) && bytes.HasPrefix(whole, data) && !pngCutShort(data) {
			t.Errorf("a PNG cut after %d of its %d bytes is not cut short", len(data), len(whole))
		}
	})
}
