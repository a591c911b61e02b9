package vision

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// claimingPNG returns a PNG of one pixel whose header claims w x h pixels
// (the CRC of its IHDR chunk made right again): a few bytes that would
// have OpenCV's decoder throw, and the program abort.
func claimingPNG(t *testing.T, w, h uint32) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	// Signature (8), then IHDR: length (4), "IHDR" (4), width, height, ...
	ihdr := data[12 : 12+4+13]
	binary.BigEndian.PutUint32(ihdr[4:], w)
	binary.BigEndian.PutUint32(ihdr[8:], h)
	binary.BigEndian.PutUint32(data[12+4+13:], crc32.ChecksumIEEE(ihdr))
	return data
}

// claimingJPEG returns a small JPEG whose frame header (SOF0) claims w x h
// pixels.
func claimingJPEG(t *testing.T, w, h uint16) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	i := bytes.Index(data, []byte{0xFF, 0xC0})
	if i < 0 {
		t.Fatal("no SOF0 marker in Go's JPEG")
	}
	// FFC0, length (2), precision (1), height (2), width (2).
	binary.BigEndian.PutUint16(data[i+5:], h)
	binary.BigEndian.PutUint16(data[i+7:], w)
	return data
}

// folderOf writes files (name: bytes) to a new folder and opens it as a
// Source, closed when the test ends.
func folderOf(t *testing.T, files map[string][]byte) Source {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

func goodPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	img.Set(3, 3, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFolderSkipsImagesClaimingHugeSizes checks that a file whose header
// claims more pixels than OpenCV decodes is a bad frame, named and
// skipped, and the folder read on past it: OpenCV would throw, and abort
// the program with every layout not yet written.
func TestFolderSkipsImagesClaimingHugeSizes(t *testing.T) {
	files := map[string][]byte{
		"a.png":      goodPNG(t),
		"b-bomb.png": claimingPNG(t, 60000, 60000),
		"c-bomb.jpg": claimingJPEG(t, 60000, 60000),
		"d-wide.png": claimingPNG(t, 1<<21, 1),
		"e.png":      goodPNG(t),
	}
	src := folderOf(t, files)
	m := gocv.NewMat()
	defer m.Close()
	want := []string{"", "b-bomb.png", "c-bomb.jpg", "d-wide.png", ""}
	for i, bad := range want {
		err := src.Next(&m)
		switch {
		case bad == "" && err != nil:
			t.Fatalf("frame %d: %v, want a frame", i, err)
		case bad == "" && (m.Cols() != 64 || m.Rows() != 48):
			t.Fatalf("frame %d: %dx%d, want 64x48", i, m.Cols(), m.Rows())
		case bad != "" && !errors.Is(err, ErrBadFrame):
			t.Fatalf("frame %d (%s): %v, want a bad frame", i, bad, err)
		case bad != "" && (!strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "claims")):
			t.Fatalf("frame %d: %q does not name the file and what it claims", i, err)
		}
	}
	if err := src.Next(&m); err != io.EOF {
		t.Fatalf("after the last file: %v, want io.EOF", err)
	}
}

// TestVideoCutShortIsSaid checks that a video whose frames stop before the
// count its header claims ends with one bad frame saying so, and that a
// whole video ends without one.
func TestVideoCutShortIsSaid(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.avi")
	const frames = 12
	w, err := gocv.VideoWriterFile(path, "MJPG", 10, 160, 120, true)
	if err != nil || !w.IsOpened() {
		t.Skipf("no MJPG writer here: %v", err)
	}
	for i := range frames {
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(20*i), 100, 200, 0), 120, 160, gocv.MatTypeCV8UC3)
		if err := w.Write(m); err != nil {
			m.Close()
			t.Fatal(err)
		}
		m.Close()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(dir, "half.avi")
	if err := os.WriteFile(half, data[:len(data)*3/5], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		cut  bool
	}{{path, false}, {half, true}} {
		src, err := Open(c.path)
		if err != nil {
			t.Fatal(err)
		}
		m := gocv.NewMat()
		good, bad := 0, []error{}
		for range 3 * frames {
			err := src.Next(&m)
			if err == io.EOF {
				break
			}
			if err != nil {
				bad = append(bad, err)
				continue
			}
			good++
		}
		m.Close()
		src.Close()
		switch {
		case !c.cut && (good != frames || len(bad) != 0):
			t.Errorf("%s: %d frames, errors %v; want %d and none", c.path, good, bad, frames)
		case c.cut && (good == 0 || good >= frames || len(bad) != 1 || !errors.Is(bad[0], ErrBadFrame) || !strings.Contains(bad[0].Error(), "cut short")):
			t.Errorf("%s: %d frames, errors %v; want fewer than %d and one bad frame saying it is cut short", c.path, good, bad, frames)
		}
	}
}

// TestDamagedJPEGIsABadFrame checks that a JPEG whose coded data has bytes
// overwritten in its middle, which OpenCV decodes with only a warning on
// stderr, is a bad frame naming its file, and that whole JPEGs are not.
func TestDamagedJPEGIsABadFrame(t *testing.T) {
	// A smooth picture, as a table mostly is: its blocks take few bits,
	// garbage read as codes takes more.
	img := image.NewRGBA(image.Rect(0, 0, 320, 240))
	for y := range 240 {
		for x := range 320 {
			img.Set(x, y, color.RGBA{uint8(x / 2), uint8(y), 90, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	bad := slices.Clone(good)
	mid := len(bad) / 2
	// Overwritten as in a bad copy: the markers stand, the coded data
	// after the damage runs out before the image does.
	for i := mid; i < mid+400; i++ {
		bad[i] = 0x55
	}
	if jpegCutShort(bad) {
		t.Fatal("the damaged JPEG reads as cut short: the test would not exercise jpegDamaged")
	}
	if err := jpegDamaged(good); err != nil {
		t.Fatalf("jpegDamaged(whole JPEG) = %v, want nil", err)
	}
	src := folderOf(t, map[string][]byte{"1.jpg": good, "2-damaged.jpg": bad, "3.jpg": good})
	m := gocv.NewMat()
	defer m.Close()
	for i, damaged := range []bool{false, true, false} {
		err := src.Next(&m)
		if got := err != nil; got != damaged || damaged && (!errors.Is(err, ErrBadFrame) || !strings.Contains(err.Error(), "2-damaged.jpg")) {
			t.Errorf("frame %d: %v, want a bad frame naming its file: %v", i, err, damaged)
		}
	}
}
