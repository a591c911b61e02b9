package vision

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// withJunk returns the JPEG f with junk bytes before its end marker: as
// many cameras' frames end, and libjpeg warns of.
func withJunk(f []byte, n int) []byte {
	out := slices.Clone(f[:len(f)-2])
	for i := range n {
		out = append(out, byte(0x11*(i%14+1)))
	}
	return append(out, 0xFF, 0xD9)
}

// opencvJPEG encodes a picture with OpenCV (libjpeg) with the given
// imwrite parameters.
func opencvJPEG(t *testing.T, params ...int) []byte {
	t.Helper()
	m := twoTone(3, 160, 120)
	defer m.Close()
	gocv.Circle(&m, image.Pt(60, 50), 30, color.RGBA{10, 250, 30, 0}, 3)
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, append([]int{gocv.IMWriteJpegQuality, 90}, params...))
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	return bytes.Clone(buf.GetBytes())
}

func TestJPEGScans(t *testing.T) {
	goJPEG := mjpegFrame(t, 1, 160, 120)
	rst := opencvJPEG(t, gocv.IMWriteJpegRstInterval, 3)
	// A restart marker removed: the interval's codes run into the next.
	i := bytes.Index(rst, []byte{0xFF, 0xD2})
	noRST := append(slices.Clone(rst[:i]), rst[i+2:]...)
	// Bytes before each restart marker, as some cameras leave.
	var junkRST []byte
	for k := 0; k < len(rst); k++ {
		if k > 0 && rst[k-1] == 0xFF && rst[k] >= 0xD0 && rst[k] <= 0xD7 {
			junkRST = append(junkRST[:len(junkRST)-1], 0x42, 0xFF)
		}
		junkRST = append(junkRST, rst[k])
	}
	sos := bytes.Index(goJPEG, []byte{0xFF, 0xDA})
	badCode := slices.Clone(goJPEG)
	for k := sos + 20; k < sos+28; k += 2 {
		// 0xFF bytes (stuffed): 32 ones, and no code of 16 ones.
		badCode[k], badCode[k+1] = 0xFF, 0x00
	}
	cases := []struct {
		name  string
		data  []byte
		extra int    // -1: not walked
		err   string // "" for none
	}{
		{"Go's JPEG", goJPEG, 0, ""},
		{"OpenCV's JPEG", opencvJPEG(t), 0, ""},
		{"OpenCV's, optimised tables", opencvJPEG(t, gocv.IMWriteJpegOptimize, 1), 0, ""},
		{"OpenCV's, restart markers", rst, 0, ""},
		{"OpenCV's, progressive: not walked", opencvJPEG(t, gocv.IMWriteJpegProgressive, 1), -1, ""},
		{"grey", func() []byte {
			m := opencvJPEG(t)
			g, _ := gocv.IMDecode(m, gocv.IMReadGrayScale)
			defer g.Close()
			b, _ := gocv.IMEncode(gocv.JPEGFileExt, g)
			defer b.Close()
			return bytes.Clone(b.GetBytes())
		}(), 0, ""},
		{"bytes left before the end", withJunk(goJPEG, 6), 6, ""},
		{"bytes left before restart markers", junkRST, strings.Count(string(junkRST), "\x42\xff") - strings.Count(string(rst), "\x42\xff"), ""},
		{"cut short", goJPEG[:len(goJPEG)*2/3], 0, "the coded data ends before the image does"},
		{"a restart marker missing", noRST, 0, "restart marker"},
		{"a code in no table", badCode, 0, "no Huffman table"},
		{"not a JPEG", []byte("a shopping list"), -1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			extra, err := jpegScans(c.data)
			switch {
			case c.err == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("got %v, want an error saying %q", err, c.err)
			case c.err == "" && extra != c.extra:
				t.Errorf("got %d bytes left over, want %d", extra, c.extra)
			}
		})
	}
}

// TestVideoFrameWithBytesLeftOver: in a video whose frames end their coded
// data exactly, a frame with bytes left over after its blocks is damaged
// (codes put out of step by bytes overwritten, fallen back in step: the
// frame garbled from there); in a video whose encoder leaves some in its
// first frames, as many cameras do, they are no damage.
func TestVideoFrameWithBytesLeftOver(t *testing.T) {
	frames := make([][]byte, 8)
	for i := range frames {
		frames[i] = mjpegFrame(t, i, 160, 120)
	}
	cases := []struct {
		name string
		junk map[int]int // frame: bytes left over
		bad  []int
	}{
		{"one frame among exact ones", map[int]int{5: 6}, []int{5}},
		{"a camera that leaves bytes", map[int]int{0: 2, 1: 1, 3: 4, 5: 6, 7: 3}, nil},
	}
	dir := t.TempDir()
	for k, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := openMJPEGStream(t, filepath.Join(dir, fmt.Sprintf("s%d.mjpeg", k)), frames, func(i int, f []byte) []byte {
				if n, ok := c.junk[i]; ok {
					return withJunk(f, n)
				}
				return f
			})
			defer src.Close()
			m := gocv.NewMat()
			defer m.Close()
			var bad []int
			for i := 0; ; i++ {
				err := src.Next(&m)
				if err == io.EOF {
					break
				}
				if err != nil {
					if !strings.Contains(err.Error(), "left over") {
						t.Errorf("frame %d: %v, want a frame or bytes left over", i, err)
					}
					bad = append(bad, i)
				}
			}
			if !slices.Equal(bad, c.bad) {
				t.Errorf("bad frames %v, want %v", bad, c.bad)
			}
		})
	}
}
