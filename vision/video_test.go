package vision

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// twoTone returns frame i of a test video: its top half one colour, its
// bottom half another, both changing with i (BGR). A frame cut short or
// damaged shows its bottom half wrong: its mean is not twoToneMean(i).
func twoTone(i, w, h int) gocv.Mat {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(20*i), 100, 200, 0), h, w, gocv.MatTypeCV8UC3)
	bottom := m.Region(image.Rect(0, h/2, w, h))
	defer bottom.Close()
	bottom.SetTo(gocv.NewScalar(200, float64(20*i), 50, 0))
	return m
}

func twoToneMean(i int) [3]float64 {
	return [3]float64{(20*float64(i) + 200) / 2, (100 + 20*float64(i)) / 2, (200 + 50) / 2}
}

// writeVideo writes frames two-tone frames with a video writer of the
// codec to path and returns the file's bytes, or skips the test when
// OpenCV here has no such writer.
func writeVideo(t *testing.T, path, codec string, frames int) []byte {
	t.Helper()
	w, err := gocv.VideoWriterFile(path, codec, 10, 160, 120, true)
	if err != nil || !w.IsOpened() {
		t.Skipf("no %s writer here: %v", codec, err)
	}
	for i := range frames {
		m := twoTone(i, 160, 120)
		err := w.Write(m)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readAll reads src to its end: for each frame, its mean colour (BGR) and
// size, or the error it came with.
type readFrame struct {
	mean [3]float64
	w, h int
	err  error
}

func readAll(t *testing.T, path string) []readFrame {
	t.Helper()
	src, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	var out []readFrame
	for range 100 {
		err := src.Next(&m)
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, readFrame{err: err})
			continue
		}
		s := m.Mean()
		out = append(out, readFrame{mean: [3]float64{s.Val1, s.Val2, s.Val3}, w: m.Cols(), h: m.Rows()})
	}
	t.Fatal("no end after 100 frames")
	return nil
}

// checkFrames compares what was read with want: for each frame, the
// two-tone frame it must be (its index), or -1 for a bad frame whose error
// holds the text bad.
func checkFrames(t *testing.T, got []readFrame, want []int, bad []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d frames, want %d", len(got), len(want))
	}
	k := 0
	for i := range min(len(got), len(want)) {
		g := got[i]
		switch {
		case want[i] < 0 && g.err == nil:
			t.Errorf("frame %d: a good frame, want a bad one saying %q", i, bad[k])
		case want[i] < 0 && (!errors.Is(g.err, ErrBadFrame) || !strings.Contains(g.err.Error(), bad[k])):
			t.Errorf("frame %d: %v, want a bad frame saying %q", i, g.err, bad[k])
		case want[i] >= 0 && g.err != nil:
			t.Errorf("frame %d: %v, want frame %d", i, g.err, want[i])
		case want[i] >= 0:
			m := twoToneMean(want[i])
			for c := range 3 {
				if math.Abs(g.mean[c]-m[c]) > 4 {
					t.Errorf("frame %d: mean colour %.1f, want frame %d's %.1f: the frame is not whole", i, g.mean, want[i], m)
					break
				}
			}
		}
		if want[i] < 0 {
			k++
		}
	}
}

// jpegStarts returns where each JPEG starts in data (its SOI marker and
// the start of a segment after it).
func jpegStarts(data []byte) []int {
	var at []int
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte{0xFF, 0xD8, 0xFF})
		if j < 0 {
			return at
		}
		at = append(at, i+j)
		i += j + 3
	}
}

// TestVideoCutShortIsSaid: a Motion JPEG video cut short is read up to
// the cut, each frame whole; the frame the cut fell in is a bad frame
// (never the top of one frame over the bottom of another), and so are
// the frames missing from the count the header claims, even two of six.
func TestVideoCutShortIsSaid(t *testing.T) {
	dir := t.TempDir()
	data := writeVideo(t, filepath.Join(dir, "game.avi"), "MJPG", 12)
	six := writeVideo(t, filepath.Join(dir, "six.avi"), "MJPG", 6)
	starts, starts6 := jpegStarts(data), jpegStarts(six)
	if len(starts) != 12 || len(starts6) != 6 {
		t.Fatalf("found %d and %d JPEGs in the videos, want 12 and 6", len(starts), len(starts6))
	}
	frames := func(n int) []int {
		var w []int
		for i := range n {
			w = append(w, i)
		}
		return w
	}
	cases := []struct {
		name string
		data []byte
		want []int // frame indices, -1 for a bad frame
		bad  []string
	}{
		{"a whole video", data, frames(12), nil},
		{"a video cut in the middle of frame 8", data[:starts[8]+(starts[9]-starts[8])/2],
			append(frames(8), -1, -1), []string{"cut short", "ends after 9 frames of the 12"}},
		{"six frames cut after the fourth", six[:starts6[4]-8],
			append(frames(4), -1), []string{"ends after 4 frames of the 6"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("case%d.avi", i))
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			checkFrames(t, readAll(t, path), c.want, c.bad)
		})
	}
}

// TestVideoDecodedByOpenCVHoldsBackItsLastFrame: a video OpenCV decodes
// (not Motion JPEG: lossless FFV1 here) cut short gives its frames up to
// the cut whole; the last one read, where the cut most likely fell, is
// a bad frame saying so.
func TestVideoDecodedByOpenCVHoldsBackItsLastFrame(t *testing.T) {
	dir := t.TempDir()
	data := writeVideo(t, filepath.Join(dir, "whole.mkv"), "FFV1", 12)
	checkFrames(t, readAll(t, filepath.Join(dir, "whole.mkv")), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, nil)
	cut := filepath.Join(dir, "cut.mkv")
	if err := os.WriteFile(cut, data[:len(data)*3/5], 0o644); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, cut)
	if len(got) < 2 {
		t.Fatalf("got %d frames from the cut video, want some and a bad one", len(got))
	}
	want := make([]int, len(got))
	for i := range want {
		want[i] = i
	}
	want[len(want)-1] = -1
	checkFrames(t, got, want, []string{"its last frame, where the cut most likely fell, is skipped"})
}

// mjpegFrame encodes a Go-drawn picture of w x h pixels, different for each
// i, as a JPEG: the frames of a .mjpeg stream.
func mjpegFrame(t *testing.T, i, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{uint8(x + 7*i), uint8(y * 2), uint8((x*y)/4 + 30*i), 255}
			if y >= h/2 {
				c = color.RGBA{uint8(200 - x/2), uint8(20 * i), uint8(50 + y/3), 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestVideoFramesAreCheckedAsJPEGFiles: the frames of a Motion JPEG stream
// (.mjpeg, JPEGs one after the other) get the checks of an image file: a
// frame cut short, one with bytes overwritten in its middle, one of
// another size than the video's are bad frames, named as such, and the
// others come whole.
func TestVideoFramesAreCheckedAsJPEGFiles(t *testing.T) {
	const n = 8
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = mjpegFrame(t, i, 160, 120)
	}
	cutShort := func(f []byte) []byte { return f[:len(f)*2/3] }
	damaged := func(f []byte) []byte {
		f = slices.Clone(f)
		sos := bytes.Index(f, []byte{0xFF, 0xDA})
		mid := sos + (len(f)-sos)/2
		for i := mid; i < mid+300 && i < len(f)-2; i++ {
			f[i] = 0x55
		}
		return f
	}
	cases := []struct {
		name    string
		replace map[int][]byte
		bad     map[int]string
	}{
		{"whole frames", nil, nil},
		{"a frame cut short", map[int][]byte{5: cutShort(frames[5])}, map[int]string{5: "cut short"}},
		{"a damaged frame", map[int][]byte{5: damaged(frames[5])}, map[int]string{5: "damaged"}},
		{"frames of other sizes", map[int][]byte{2: mjpegFrame(t, 2, 80, 60), 6: mjpegFrame(t, 6, 200, 150)},
			map[int]string{2: "a frame of 80x60 pixels in a video of 160x120", 6: "a frame of 200x150 pixels"}},
	}
	dir := t.TempDir()
	for k, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := openMJPEGStream(t, filepath.Join(dir, fmt.Sprintf("stream%d.mjpeg", k)), frames, func(i int, f []byte) []byte {
				if r, ok := c.replace[i]; ok {
					return r
				}
				return f
			})
			defer src.Close()
			m := gocv.NewMat()
			defer m.Close()
			for i := range n {
				err := src.Next(&m)
				want, isBad := c.bad[i]
				switch {
				case isBad && (!errors.Is(err, ErrBadFrame) || !strings.Contains(err.Error(), want)):
					t.Errorf("frame %d: %v, want a bad frame saying %q", i, err, want)
				case !isBad && err != nil:
					t.Errorf("frame %d: %v, want a whole frame", i, err)
				case !isBad:
					wantImg, _ := gocv.IMDecode(frames[i], gocv.IMReadColor)
					diff := gocv.NewMat()
					if m.Cols() == wantImg.Cols() && m.Rows() == wantImg.Rows() {
						gocv.AbsDiff(m, wantImg, &diff)
					}
					// A frame differs from the next by about 35 (the three
					// channels' mean differences), ffmpeg's decoding of a
					// JPEG from libjpeg's by about 10.
					if diff.Empty() || diff.Mean().Val1+diff.Mean().Val2+diff.Mean().Val3 > 15 {
						t.Errorf("frame %d: %dx%d, not the frame written", i, m.Cols(), m.Rows())
					}
					diff.Close()
					wantImg.Close()
				}
			}
			if err := src.Next(&m); err != io.EOF {
				t.Errorf("after the last frame: %v, want io.EOF", err)
			}
		})
	}
}

func TestCutShort(t *testing.T) {
	cases := []struct {
		claimed float64
		read    int
		want    bool
	}{
		{6, 6, false},
		{6, 5, true},
		{6, 4, true},
		{6, 7, false}, // a count that was an estimate, low
		{99, 98, true},
		{1000, 995, false}, // an estimate off by a little
		{1000, 980, true},
		{0, 0, false},
		{-9.2e18, 3, false}, // a stream of JPEGs claims nonsense
	}
	for _, c := range cases {
		if got := cutShort(c.claimed, c.read); got != c.want {
			t.Errorf("cutShort(%g claimed, %d read) = %v, want %v", c.claimed, c.read, got, c.want)
		}
	}
}

// openMJPEGStream writes frames one after the other as a .mjpeg stream at
// path, each frame passed through change first (its index and bytes), and
// opens it.
func openMJPEGStream(t *testing.T, path string, frames [][]byte, change func(i int, f []byte) []byte) Source {
	t.Helper()
	var stream []byte
	for i, f := range frames {
		stream = append(stream, change(i, f)...)
	}
	if err := os.WriteFile(path, stream, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Open(path)
	if err != nil {
		t.Fatalf("OpenCV does not read the .mjpeg stream: %v", err)
	}
	return src
}
