package vision

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gocv.io/x/gocv"

	"tableref/calibration"
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

// ErrSourceGone is wrapped when a camera stops delivering frames.
var ErrSourceGone = errors.New("source stopped delivering frames")

var (
	imageExts = []string{".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
	videoExts = []string{".mp4", ".avi", ".mkv", ".mov", ".webm", ".mpg", ".mpeg", ".m4v", ".wmv", ".ogv", ".mjpeg", ".mjpg"}
)

// Open opens a frame source: "camera:N" for a camera,
// a folder of images, an image file or a video file.
func Open(spec string) (Source, error) {
	if n, ok := cameraIndex(spec); ok {
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
		return &filesSource{name: spec, files: []string{spec}}, nil
	}
	if !slices.Contains(videoExts, strings.ToLower(filepath.Ext(spec))) {
		return nil, fmt.Errorf("open %s: not an image (%s) or a video (%s)", spec, strings.Join(imageExts, " "), strings.Join(videoExts, " "))
	}
	return openVideo(spec)
}

func cameraIndex(spec string) (int, bool) {
	s, ok := strings.CutPrefix(spec, "camera:")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

func isImage(path string) bool {
	return slices.Contains(imageExts, strings.ToLower(filepath.Ext(path)))
}

// filesSource reads image files one after the other.
type filesSource struct {
	name  string
	files []string
	next  int
}

func openFolder(dir string) (Source, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open folder %s: %w", dir, err)
	}
	s := &filesSource{name: dir}
	for _, e := range entries {
		if !e.IsDir() && isImage(e.Name()) {
			s.files = append(s.files, filepath.Join(dir, e.Name()))
		}
	}
	if len(s.files) == 0 {
		return nil, fmt.Errorf("open folder %s: no images in it (%s)", dir, strings.Join(imageExts, " "))
	}
	slices.Sort(s.files)
	return s, nil
}

func (s *filesSource) Next(dst *gocv.Mat) error {
	if s.next >= len(s.files) {
		return io.EOF
	}
	f := s.files[s.next]
	s.next++
	data, err := os.ReadFile(f)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	if jpegCutShort(data) {
		return fmt.Errorf("%w: %s is cut short: its JPEG data ends before the image does", ErrBadFrame, f)
	}
	if err := calibration.CheckImageSize(data, f); err != nil {
		return fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	if err := jpegDamaged(data); err != nil {
		return fmt.Errorf("%w: %s is damaged: its JPEG data is not valid (%v)", ErrBadFrame, f, err)
	}
	// Decoded from the bytes already read, as IMRead would (EXIF
	// orientation included).
	m, err := gocv.IMDecode(data, gocv.IMReadColor)
	defer m.Close()
	if err != nil || m.Empty() {
		return fmt.Errorf("%w: %s cannot be read as an image", ErrBadFrame, f)
	}
	m.CopyTo(dst)
	return nil
}

func (s *filesSource) Name() string { return s.name }
func (s *filesSource) Close() error { return nil }

// Current returns the file of the frame last read.
func (s *filesSource) Current() string {
	if s.next == 0 {
		return ""
	}
	return s.files[s.next-1]
}

// captureSource reads a camera or a video file through OpenCV.
type captureSource struct {
	name   string
	cap    *gocv.VideoCapture
	camera bool
	misses int
	read   int  // frames read from a video
	ended  bool // a video's end was met
}

// A video that ends this many frames (and this share of them) short of
// the count its header claims is taken for cut short: containers' counts
// may be an estimate off by a frame or so.
const (
	videoShortFrames = 2
	videoShortShare  = 0.01
)

// OpenCamera opens camera n.
func OpenCamera(n int) (Source, error) {
	c, err := gocv.OpenVideoCapture(n)
	if err != nil || !c.IsOpened() {
		if c != nil {
			c.Close()
		}
		return nil, fmt.Errorf("open camera %d: no such camera, or it is in use", n)
	}
	return &captureSource{name: fmt.Sprintf("camera:%d", n), cap: c, camera: true}, nil
}

func openVideo(path string) (Source, error) {
	c, err := gocv.VideoCaptureFile(path)
	if err != nil || !c.IsOpened() {
		if c != nil {
			c.Close()
		}
		return nil, fmt.Errorf("open %s: not an image or a video this program can read", path)
	}
	return &captureSource{name: path, cap: c}, nil
}

func (s *captureSource) Next(dst *gocv.Mat) error {
	if s.cap.Read(dst) && !dst.Empty() {
		s.misses = 0
		s.read++
		return nil
	}
	if !s.camera {
		// A video cut short (a copy broken off, a camera's recording
		// stopped) ends early without a word from OpenCV: the frames
		// missing are said once, as a bad frame.
		claimed := s.cap.Get(gocv.VideoCaptureFrameCount)
		if !s.ended && claimed-float64(s.read) > max(videoShortFrames, videoShortShare*claimed) {
			s.ended = true
			return fmt.Errorf("%w: %s ends after %d frames of the %.0f its header claims (cut short or damaged)", ErrBadFrame, s.name, s.read, claimed)
		}
		s.ended = true
		return io.EOF
	}
	s.misses++
	if s.misses >= 30 {
		return fmt.Errorf("%s: %w (unplugged?)", s.name, ErrSourceGone)
	}
	return fmt.Errorf("%w: %s gave no frame", ErrBadFrame, s.name)
}

func (s *captureSource) Name() string { return s.name }
func (s *captureSource) Close() error { return s.cap.Close() }

// IsImageFile reports whether path names an image file by its extension.
func IsImageFile(path string) bool { return isImage(path) }
