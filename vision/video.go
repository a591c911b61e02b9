package vision

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"io"

	"gocv.io/x/gocv"

	"tableref/calibration"
)

// captureSource reads a camera or a video file through OpenCV.
//
// A video whose packets are JPEG images (Motion JPEG in an AVI or a MOV,
// a .mjpeg stream of JPEGs one after the other) is read packet by packet
// (OpenCV's ffmpeg backend gives them with its format property set to
// -1): each packet gets the checks an image file gets (cut short, damaged,
// a size other than the video's) and is decoded here. Any other video is
// decoded by OpenCV, which says nothing of a damaged frame; there the
// frame count its header claims is the only check, and each frame is held
// back until the next read tells whether the video ended early (the last
// frame of a video cut short is then the one the cut fell in, and is
// skipped).
type captureSource struct {
	name   string
	cap    *gocv.VideoCapture
	camera bool
	misses int // a camera's reads in a row that gave no frame

	// A video's state; buf and spare are made by openVideo and closed by
	// Close.
	packets bool     // read as its JPEG packets
	pending bool     // packets: buf holds the first packet, read when the video was opened
	buf     gocv.Mat // the packet last read; or, decoded, the frame read ahead
	spare   gocv.Mat // decoded: the Mat the next frame is read into
	ahead   bool     // decoded: buf holds a frame read ahead
	w, h    int      // the size of the video's frames (0: not known yet)
	read    int      // frames (packets) read from a video
	ended   bool     // a video's end was met
	exact   int      // packets: frames so far whose coded data ends exactly with their blocks
	loose   bool     // packets: the video's encoder leaves bytes over (jpegScans)
}

// videoExactFrames is the number of frames from the start of a Motion JPEG
// video whose coded data ends exactly with their blocks after which a
// frame with bytes left over is taken for damaged: the encoder leaves
// none, so those bytes are the tail of a frame whose codes were put out of
// step by bytes overwritten. A video whose encoder leaves some (many
// cameras do, in sound frames) is not judged so.
const videoExactFrames = 3

// cameraMisses is the number of reads in a row without a frame after
// which a camera is taken for gone (about a second at 30 frames a second).
const cameraMisses = 30

// A video that ends short of the frame count its header claims is taken
// for cut short. Below videoFewFrames frames one frame missing says so;
// from there on more than videoShortShare of them: some containers' counts
// are an estimate from the duration, off by a frame or so.
const (
	videoFewFrames  = 100
	videoShortShare = 0.01
)

// OpenCamera opens camera n (0 to MaxCamera).
func OpenCamera(n int) (Source, error) {
	if n < 0 || n > MaxCamera {
		return nil, fmt.Errorf("open camera %d: cameras are numbered from 0 to %d", n, MaxCamera)
	}
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
	c, err := openCapture(path)
	if err != nil {
		return nil, err
	}
	s := &captureSource{name: path, cap: c, buf: gocv.NewMat(), spare: gocv.NewMat()}
	s.w, s.h = int(c.Get(gocv.VideoCaptureFrameWidth)), int(c.Get(gocv.VideoCaptureFrameHeight))
	if s.readsPackets() {
		return s, nil
	}
	// Not JPEG packets: opened again, for OpenCV to decode.
	c.Close()
	if s.cap, err = openCapture(path); err != nil {
		s.buf.Close()
		s.spare.Close()
		return nil, err
	}
	return s, nil
}

// openCapture opens a video with OpenCV's ffmpeg backend, which gives a
// video's packets when asked, or else with whichever backend reads it.
func openCapture(path string) (*gocv.VideoCapture, error) {
	for _, api := range []gocv.VideoCaptureAPI{gocv.VideoCaptureFFmpeg, gocv.VideoCaptureAny} {
		c, err := gocv.VideoCaptureFileWithAPI(path, api)
		if err == nil && c.IsOpened() {
			return c, nil
		}
		if c != nil {
			c.Close()
		}
	}
	return nil, fmt.Errorf("open %s: not an image or a video this program can read", path)
}

// readsPackets asks the capture for the video's packets and reports
// whether the first one is a JPEG image; it is then kept for the first
// Next.
func (s *captureSource) readsPackets() bool {
	s.cap.Set(gocv.VideoCaptureFormat, -1)
	if s.cap.Get(gocv.VideoCaptureFormat) != -1 {
		return false
	}
	if !s.cap.Read(&s.buf) || s.buf.Empty() || s.buf.Rows() != 1 || s.buf.Type() != gocv.MatTypeCV8U {
		return false
	}
	data, err := s.buf.DataPtrUint8()
	if err != nil || len(data) < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF {
		return false
	}
	s.packets, s.pending = true, true
	return true
}

func (s *captureSource) Next(dst *gocv.Mat) error {
	switch {
	case s.camera:
		return s.nextCamera(dst)
	case s.packets:
		return s.nextPacket(dst)
	}
	return s.nextDecoded(dst)
}

func (s *captureSource) nextCamera(dst *gocv.Mat) error {
	if s.cap.Read(dst) && !dst.Empty() {
		s.misses = 0
		return nil
	}
	s.misses++
	if s.misses >= cameraMisses {
		return fmt.Errorf("%s: %w (unplugged?)", s.name, ErrSourceGone)
	}
	return fmt.Errorf("%w: %s gave no frame", ErrBadFrame, s.name)
}

func (s *captureSource) nextPacket(dst *gocv.Mat) error {
	if s.ended {
		return io.EOF
	}
	if !s.pending && (!s.cap.Read(&s.buf) || s.buf.Empty()) {
		return s.end()
	}
	s.pending = false
	s.read++
	return s.decodePacket(s.buf.ToBytes(), dst)
}

// decodePacket checks one JPEG packet as an image file is checked and
// decodes it into dst.
func (s *captureSource) decodePacket(data []byte, dst *gocv.Mat) error {
	if jpegCutShort(data) {
		return fmt.Errorf("%w: %s: a frame cut short: its JPEG data ends before the image does", ErrBadFrame, s.name)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%w: %s: a frame that is not a JPEG image (%v)", ErrBadFrame, s.name, err)
	}
	if err := calibration.CheckImageSize(data, s.name); err != nil {
		return fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	if s.w <= 0 || s.h <= 0 {
		// No size in the header: the first frame's is the video's.
		s.w, s.h = cfg.Width, cfg.Height
	}
	if cfg.Width != s.w || cfg.Height != s.h {
		return fmt.Errorf("%w: %s: a frame of %dx%d pixels in a video of %dx%d", ErrBadFrame, s.name, cfg.Width, cfg.Height, s.w, s.h)
	}
	extra, err := jpegInspect(data)
	if err != nil {
		return fmt.Errorf("%w: %s: a damaged frame: its JPEG data is not valid (%v)", ErrBadFrame, s.name, err)
	}
	switch {
	case extra == 0:
		s.exact++
	case extra > 0 && !s.loose && s.exact >= videoExactFrames:
		return fmt.Errorf("%w: %s: a damaged frame: %d bytes of its coded data are left over after its last block, where the video's frames before it had none", ErrBadFrame, s.name, extra)
	case extra > 0:
		s.loose = true
	}
	// As a video decoder would: no EXIF rotation.
	m, err := gocv.IMDecode(data, gocv.IMReadColor|gocv.IMReadIgnoreOrientation)
	defer m.Close()
	if err != nil || m.Empty() {
		return fmt.Errorf("%w: %s: a frame that cannot be decoded", ErrBadFrame, s.name)
	}
	m.CopyTo(dst)
	return nil
}

func (s *captureSource) nextDecoded(dst *gocv.Mat) error {
	if s.ended {
		return io.EOF
	}
	if !s.ahead {
		if !s.readFrame(&s.buf) {
			return s.end()
		}
		s.ahead = true
	}
	// buf holds the frame to give; the read after it tells whether it
	// was the last of a video cut short.
	if !s.readFrame(&s.spare) {
		s.ahead = false
		if err := s.end(); err != io.EOF {
			return fmt.Errorf("%w; its last frame, where the cut most likely fell, is skipped", err)
		}
		return s.give(dst)
	}
	err := s.give(dst)
	s.buf, s.spare = s.spare, s.buf
	return err
}

// readFrame reads a decoded frame into m.
func (s *captureSource) readFrame(m *gocv.Mat) bool {
	if !s.cap.Read(m) || m.Empty() {
		return false
	}
	s.read++
	return true
}

// give copies the frame held in buf to dst, unless its size is not the
// video's.
func (s *captureSource) give(dst *gocv.Mat) error {
	if s.w > 0 && s.h > 0 && (s.buf.Cols() != s.w || s.buf.Rows() != s.h) {
		return fmt.Errorf("%w: %s: a frame of %dx%d pixels in a video of %dx%d", ErrBadFrame, s.name, s.buf.Cols(), s.buf.Rows(), s.w, s.h)
	}
	s.buf.CopyTo(dst)
	return nil
}

// end is met when the capture gives no more frames: io.EOF, or for a video
// cut short (a copy broken off, a recording stopped), which OpenCV ends
// without a word, a bad frame saying so, once.
func (s *captureSource) end() error {
	if s.ended {
		return io.EOF
	}
	s.ended = true
	if claimed := s.cap.Get(gocv.VideoCaptureFrameCount); cutShort(claimed, s.read) {
		return fmt.Errorf("%w: %s ends after %d frames of the %.0f its header claims (cut short or damaged)", ErrBadFrame, s.name, s.read, claimed)
	}
	return io.EOF
}

// cutShort reports whether a video that gave read frames ends short of
// the count claimed by its header (none, or nonsense, for a stream of
// JPEGs: not judged).
func cutShort(claimed float64, read int) bool {
	if claimed <= 0 || claimed > 1e12 {
		return false
	}
	missing := claimed - float64(read)
	if claimed < videoFewFrames {
		return missing >= 1
	}
	return missing > videoShortShare*claimed
}

func (s *captureSource) Name() string { return s.name }

// Kind returns KindCamera or KindVideo.
func (s *captureSource) Kind() Kind {
	if s.camera {
		return KindCamera
	}
	return KindVideo
}

func (s *captureSource) Close() error {
	if !s.camera {
		s.buf.Close()
		s.spare.Close()
	}
	return s.cap.Close()
}
