package vision

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
)

// Source yields frames: a camera, a video file, an image file or a folder
// of images. One goroutine owns a Source.
type Source interface {
	// Next reads the next frame into dst (BGR). It returns io.EOF after
	// the last frame, and an error wrapping ErrBadFrame for a frame that
	// cannot be read, after which reading may go on.
	Next(dst *gocv.Mat) error
	// Name says where the frames come from ("camera:0", a file name).
	Name() string
	// Close releases the camera or file.
	Close() error
}

// Kind says what a Source reads.
type Kind int

// The kinds of Source that Open returns; KindUnknown for any other.
const (
	KindUnknown Kind = iota
	KindCamera
	KindVideo
	KindImage  // one image file
	KindFolder // a folder of image files
)

// KindOf returns what src reads, as the Source itself says (a Source of
// this package does; any other is KindUnknown).
func KindOf(src Source) Kind {
	if k, ok := src.(interface{ Kind() Kind }); ok {
		return k.Kind()
	}
	return KindUnknown
}

// ErrSourceGone is wrapped when a camera stops delivering frames.
var ErrSourceGone = errors.New("source stopped delivering frames")

// MaxCamera is the highest camera index: OpenCV takes it as a C int, and
// a larger one would wrap to another camera.
const MaxCamera = math.MaxInt32

// maxImageFile is the largest image file read, in bytes: a file that
// never ends (a link to /dev/zero) or a huge one is skipped, not read
// until memory runs out.
const maxImageFile = 256 << 20

// maxFramePixels is the most pixels an image file may have: a 200 MP
// phone's photograph (16320x12240) is within it. Decoded, such an image
// takes 3 bytes a pixel and the detector some 5 more; a larger one (a
// file of a few MB may hold 30000x30000 pixels) would take tens of GB, and
// past 2 GB of pixels OpenCV's Mats no longer work.
const maxFramePixels = 1 << 28

var (
	imageExts = []string{".png", ".jpg", ".jpeg", ".jpe", ".jfif", ".bmp", ".tif", ".tiff", ".webp"}
	// Images OpenCV does not decode: a folder's are listed, to be skipped
	// saying why, not passed over in silence.
	unreadableExts = []string{".gif", ".heic", ".heif", ".avif"}
	videoExts      = []string{".mp4", ".avi", ".mkv", ".mov", ".webm", ".mpg", ".mpeg", ".m4v", ".wmv", ".ogv", ".mjpeg", ".mjpg"}
)

// Open opens a frame source: "camera:N" for a camera,
// a folder of images, an image file or a video file. A folder is told
// from a file by the file system, whatever its name ends with; a file
// whose name does not end as an image's (photo.jfif, photo.jpg_large, a
// name without one) is an image when its first bytes say so.
func Open(spec string) (Source, error) {
	if n, ok, err := cameraIndex(spec); ok {
		if err != nil {
			return nil, err
		}
		return OpenCamera(n)
	}
	st, err := os.Stat(spec)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", spec, err)
	}
	if st.IsDir() {
		return openFolder(spec)
	}
	if isImage(spec) {
		return &filesSource{name: spec, files: []string{spec}, single: true}, nil
	}
	if slices.Contains(videoExts, strings.ToLower(filepath.Ext(spec))) {
		return openVideo(spec) // a .mjpeg stream starts as a JPEG image
	}
	format := ""
	if st.Mode().IsRegular() {
		format = fileFormat(spec)
	}
	switch {
	case readable(format):
		return &filesSource{name: spec, files: []string{spec}, single: true}, nil
	case format != "":
		return nil, fmt.Errorf("open %s: %s", spec, unreadableImage(format))
	}
	return nil, fmt.Errorf("open %s: not an image (%s) or a video (%s)", spec, strings.Join(imageExts, " "), strings.Join(videoExts, " "))
}

// cameraIndex reads "camera:N": ok when spec names a camera by a number,
// with an error when the number is not a camera's.
func cameraIndex(spec string) (n int, ok bool, err error) {
	s, ok := strings.CutPrefix(spec, "camera:")
	if !ok || s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false, nil
	}
	n, err = strconv.Atoi(s)
	if err != nil || n > MaxCamera {
		return 0, true, fmt.Errorf("open %s: cameras are numbered from 0 to %d", spec, MaxCamera)
	}
	return n, true, nil
}

func isImage(path string) bool {
	return slices.Contains(imageExts, strings.ToLower(filepath.Ext(path)))
}

// filesSource reads image files one after the other.
type filesSource struct {
	name   string
	files  []string
	single bool // one image file, not a folder
	next   int
}

// openFolder lists the image files of dir in natural order (models.CompareIDs:
// frame2 before frame10).
func openFolder(dir string) (Source, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open folder %s: %w", dir, err)
	}
	s := &filesSource{name: dir}
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if !e.IsDir() && (isImage(e.Name()) || slices.Contains(unreadableExts, ext)) {
			s.files = append(s.files, filepath.Join(dir, e.Name()))
		}
	}
	if len(s.files) == 0 {
		return nil, fmt.Errorf("open folder %s: no images in it (%s)", dir, strings.Join(imageExts, " "))
	}
	slices.SortFunc(s.files, func(a, b string) int { return models.CompareIDs(filepath.Base(a), filepath.Base(b)) })
	return s, nil
}

func (s *filesSource) Next(dst *gocv.Mat) error {
	if s.next >= len(s.files) {
		return io.EOF
	}
	f := s.files[s.next]
	s.next++
	data, err := readImageFile(f)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	format := imageFormat(data)
	switch {
	case len(data) == 0:
		return fmt.Errorf("%w: %s is empty (0 bytes)", ErrBadFrame, f)
	case format != "" && !readable(format):
		return fmt.Errorf("%w: %s: %s", ErrBadFrame, f, unreadableImage(format))
	case jpegCutShort(data):
		return fmt.Errorf("%w: %s is cut short: its JPEG data ends before the image does", ErrBadFrame, f)
	case format == "PNG" && pngCutShort(data):
		return fmt.Errorf("%w: %s is cut short: its PNG data ends before the image does", ErrBadFrame, f)
	}
	if err := calibration.CheckImageSize(data, f); err != nil {
		return fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	if w, h, ok := imageSize(data, format); ok && int64(w)*int64(h) > maxFramePixels {
		return fmt.Errorf("%w: %s is %dx%d pixels (%d MP), more than the %d MP an image may have here: scale it down, to the calibration's size if there is one",
			ErrBadFrame, f, w, h, int64(w)*int64(h)/1_000_000, maxFramePixels/1_000_000)
	}
	if err := jpegDamaged(data); err != nil {
		return fmt.Errorf("%w: %s is damaged: its JPEG data is not valid (%v)", ErrBadFrame, f, err)
	}
	// Decoded from the bytes already read, as IMRead would (EXIF
	// orientation included).
	m, err := gocv.IMDecode(data, gocv.IMReadColor)
	defer m.Close()
	if err != nil || m.Empty() {
		if format == "" {
			return fmt.Errorf("%w: %s cannot be read as an image: its content is not PNG, JPEG, BMP, TIFF or WebP", ErrBadFrame, f)
		}
		return fmt.Errorf("%w: %s cannot be read as an image: its %s data is damaged or cut short", ErrBadFrame, f, format)
	}
	m.CopyTo(dst)
	return nil
}

// imageFormat names the image format data's first bytes say it is in:
// "JPEG", "PNG", "BMP", "TIFF", "WebP", which OpenCV decodes, or "GIF",
// "HEIC", "AVIF", which it does not; "" for any other data.
func imageFormat(data []byte) string {
	has := func(at int, s string) bool { return len(data) >= at+len(s) && string(data[at:at+len(s)]) == s }
	switch {
	case has(0, "\xFF\xD8\xFF"):
		return "JPEG"
	case has(0, "\x89PNG\r\n\x1A\n"):
		return "PNG"
	case has(0, "BM") && len(data) >= 26:
		return "BMP"
	case has(0, "II*\x00"), has(0, "MM\x00*"):
		return "TIFF"
	case has(0, "RIFF") && has(8, "WEBP"):
		return "WebP"
	case has(0, "GIF87a"), has(0, "GIF89a"):
		return "GIF"
	case has(4, "ftyp") && len(data) >= 12:
		switch string(data[8:12]) {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
			return "HEIC"
		case "avif", "avis":
			return "AVIF"
		}
	}
	return ""
}

// readable reports whether OpenCV decodes images of format (imageFormat's).
func readable(format string) bool {
	return slices.Contains([]string{"JPEG", "PNG", "BMP", "TIFF", "WebP"}, format)
}

// unreadableImage says that an image of format is not read, and what to
// do.
func unreadableImage(format string) string {
	return fmt.Sprintf("a %s image, which this program cannot read: convert it to JPEG or PNG", format)
}

// fileFormat is imageFormat of the first bytes of the file at path ("" if
// it cannot be read).
func fileFormat(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 32)
	n, _ := io.ReadFull(f, head)
	return imageFormat(head[:n])
}

// imageSize returns the size data's header claims: Go's decoders read
// it (calibration registers BMP, TIFF and WebP's), or, for a BMP they do
// not (compressed), its header.
func imageSize(data []byte, format string) (w, h int, ok bool) {
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		return cfg.Width, cfg.Height, true
	}
	if format != "BMP" || binary.LittleEndian.Uint32(data[14:]) < 40 {
		return 0, 0, false
	}
	w = int(int32(binary.LittleEndian.Uint32(data[18:])))
	h = int(int32(binary.LittleEndian.Uint32(data[22:])))
	return max(w, -w), max(h, -h), true
}

// pngCutShort reports whether data, a PNG, ends before its IEND chunk: a
// file cut short by a copy or a program still writing it (libpng refuses
// it, saying only "PNG input buffer is incomplete"). The chunks are
// walked by their lengths; what follows IEND is not looked at.
func pngCutShort(data []byte) bool {
	i := 8
	for {
		if i+8 > len(data) {
			return true
		}
		n := int64(binary.BigEndian.Uint32(data[i:]))
		if int64(i)+12+n > int64(len(data)) {
			return true // length, type, data, CRC
		}
		if string(data[i+4:i+8]) == "IEND" {
			return false
		}
		i += 12 + int(n)
	}
}

// readImageFile reads the image file at path, refusing what is not a
// regular file (a device such as /dev/zero, a pipe that may never be
// written, a folder) and a file of more than maxImageFile bytes.
func readImageFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s): not read", path, fileKind(st.Mode()))
	}
	tooBig := fmt.Errorf("%s is larger than the %d MB an image file may be: not read", path, maxImageFile>>20)
	if st.Size() > maxImageFile {
		return nil, tooBig
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Still the regular file stat saw, and no more read than the cap,
	// should it have grown since.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is no longer a regular file: not read", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImageFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxImageFile {
		return nil, tooBig
	}
	return data, nil
}

// fileKind names what a file that is not a regular one is.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

func (s *filesSource) Name() string { return s.name }
func (s *filesSource) Close() error { return nil }

// Kind returns KindImage for one image file, KindFolder for a folder.
func (s *filesSource) Kind() Kind {
	if s.single {
		return KindImage
	}
	return KindFolder
}

// Current returns the file of the frame last read.
func (s *filesSource) Current() string {
	if s.next == 0 {
		return ""
	}
	return s.files[s.next-1]
}

// IsImageFile reports whether path names an image file by its extension.
// A folder may have such a name: Open and KindOf tell them apart.
func IsImageFile(path string) bool { return isImage(path) }
