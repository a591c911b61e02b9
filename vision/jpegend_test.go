package vision

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// testJPEG encodes a small picture as a baseline JPEG; with restart
// markers absent, Go's encoder writes SOI, DQT, SOF0, DHT, SOS, the coded
// data and EOI.
func testJPEG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			img.Set(x, y, color.RGBA{uint8(4 * x), uint8(5 * y), uint8(x * y), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestJPEGCutShort(t *testing.T) {
	whole := testJPEG(t)
	// An EXIF-like segment holding a whole JPEG of its own (a thumbnail)
	// after SOI: its end marker is not the image's.
	thumb := append([]byte{0xFF, 0xD8, 0xFF, 0xE1, byte((len(whole) + 2) >> 8), byte(len(whole) + 2)}, whole...)
	thumb = append(thumb, whole[2:]...)
	cases := []struct {
		name string
		data []byte
		want bool
	}{
		{"a whole JPEG", whole, false},
		{"with bytes after its end (a phone's appended video)", append(append([]byte{}, whole...), "ftypmp42 and more"...), false},
		{"with a thumbnail segment", thumb, false},
		{"cut in its coded data", whole[:len(whole)/2], true},
		{"cut just before its end marker", whole[:len(whole)-2], true},
		{"cut inside its end marker", whole[:len(whole)-1], true},
		{"cut in its headers", whole[:20], true},
		{"with a thumbnail, the image cut short", thumb[:len(thumb)-100], true},
		{"SOI alone", whole[:2], true},
		{"a PNG is not judged", []byte("\x89PNG\r\n\x1a\n...."), false},
		{"empty", nil, false},
	}
	for _, c := range cases {
		if got := jpegCutShort(c.data); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	// Every strict prefix of a JPEG that stops before its end marker is
	// cut short.
	for n := 2; n < len(whole)-1; n++ {
		if !jpegCutShort(whole[:n]) {
			t.Fatalf("the first %d of %d bytes were taken for a whole JPEG", n, len(whole))
		}
	}
}

// FuzzJPEGCutShort: any bytes are judged without a panic, and a JPEG's
// strict prefixes are cut short while the JPEG itself is not.
func FuzzJPEGCutShort(f *testing.F) {
	whole := testJPEG(f)
	f.Add(whole)
	f.Add(whole[:len(whole)/2])
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) {
		cut := jpegCutShort(data)
		if !cut && len(data) >= 2 && data[0] == 0xFF && data[1] == 0xD8 && !bytes.Contains(data, []byte{0xFF, 0xD9}) {
			t.Fatalf("a JPEG without an end marker was taken for whole: % x", data)
		}
	})
}
