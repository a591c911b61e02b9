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
	"syscall"
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
func claimingJPEG(t testing.TB, w, h uint16) []byte {
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

func goodPNG(t testing.TB) []byte {
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

// TestOpenTellsFoldersFromFiles: what a source reads is decided by the
// file system, not by the name: a folder named like an image is a folder.
func TestOpenTellsFoldersFromFiles(t *testing.T) {
	dir := t.TempDir()
	shots := filepath.Join(dir, "shots.jpg")
	if err := os.Mkdir(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{filepath.Join(shots, "a.png"), filepath.Join(dir, "one.png")} {
		if err := os.WriteFile(name, goodPNG(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		spec string
		want Kind
	}{
		{shots, KindFolder},
		{dir, KindFolder},
		{filepath.Join(dir, "one.png"), KindImage},
	}
	for _, c := range cases {
		src, err := Open(c.spec)
		if err != nil {
			t.Fatalf("Open(%s): %v", c.spec, err)
		}
		if got := KindOf(src); got != c.want {
			t.Errorf("KindOf(Open(%s)) = %v, want %v", c.spec, got, c.want)
		}
		src.Close()
	}
}

// TestFolderSkipsWhatIsNotARegularImageFile: a file that never ends (a
// link to /dev/zero), a named pipe nobody writes (reading it would wait
// for ever) and a file larger than any image are bad frames, named and
// skipped, not read until memory runs out.
func TestFolderSkipsWhatIsNotARegularImageFile(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "a.png"), goodPNG(t), 0o644))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "b-zero.jpg")))
	must(syscall.Mkfifo(filepath.Join(dir, "c-pipe.jpg"), 0o644))
	big, err := os.Create(filepath.Join(dir, "d-big.jpg"))
	must(err)
	must(big.Truncate(maxImageFile + 1)) // sparse: no disk used
	must(big.Close())
	must(os.WriteFile(filepath.Join(dir, "e.png"), goodPNG(t), 0o644))
	src, err := Open(dir)
	must(err)
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	want := []struct{ file, says string }{
		{"", ""},
		{"b-zero.jpg", "not a regular file (a device)"},
		{"c-pipe.jpg", "not a regular file (a named pipe)"},
		{"d-big.jpg", "larger than the 256 MB"},
		{"", ""},
	}
	for i, w := range want {
		err := src.Next(&m)
		switch {
		case w.file == "" && err != nil:
			t.Errorf("frame %d: %v, want a frame", i, err)
		case w.file != "" && (!errors.Is(err, ErrBadFrame) || !strings.Contains(err.Error(), w.file) || !strings.Contains(err.Error(), w.says)):
			t.Errorf("frame %d: %v, want a bad frame naming %s and saying %q", i, err, w.file, w.says)
		}
	}
}

// TestFolderFramesComeInNaturalOrder: frame2 comes before frame10, as a
// camera's or a video editor's numbering means.
func TestFolderFramesComeInNaturalOrder(t *testing.T) {
	names := []string{"frame10.png", "frame2.png", "frame1.png", "frame002b.png", "frame20.png"}
	files := map[string][]byte{}
	for _, n := range names {
		files[n] = goodPNG(t)
	}
	src := folderOf(t, files)
	m := gocv.NewMat()
	defer m.Close()
	var got []string
	for src.Next(&m) == nil {
		got = append(got, filepath.Base(src.(*filesSource).Current()))
	}
	if want := []string{"frame1.png", "frame2.png", "frame002b.png", "frame10.png", "frame20.png"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestOpenRefusesCameraNumbersBeyondOpenCVs: OpenCV takes a camera's
// number as a C int; 4294967296 would wrap to camera 0.
func TestOpenRefusesCameraNumbersBeyondOpenCVs(t *testing.T) {
	for _, spec := range []string{"camera:4294967296", "camera:2147483648", "camera:99999999999999999999"} {
		src, err := Open(spec)
		if err == nil {
			src.Close()
			t.Errorf("Open(%s): a source, want an error", spec)
			continue
		}
		if !strings.Contains(err.Error(), "numbered from 0 to 2147483647") {
			t.Errorf("Open(%s): %v, want it to say cameras are numbered from 0 to 2147483647", spec, err)
		}
	}
}
