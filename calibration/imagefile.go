package calibration

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // registered for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// OpenCV's own limits on a decoded image (CV_IO_MAX_IMAGE_WIDTH, _HEIGHT
// and _PIXELS): past them its decoders throw an exception that gocv does
// not catch, and the process aborts.
const (
	maxImageSide   = 1 << 20
	maxImagePixels = 1 << 30
)

// CheckImageSize reads the size an image file's header claims (PNG, JPEG,
// GIF, BMP, TIFF, WebP) and refuses one OpenCV would refuse by aborting
// the program: a file of a few bytes may claim 60,000 pixels each way.
// name names the file in the error. Data in no format known here, or too
// broken to give a size, passes: OpenCV's decoder then reads it or says
// it cannot.
func CheckImageSize(data []byte, name string) error {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	w, h := cfg.Width, cfg.Height
	if w > maxImageSide || h > maxImageSide || int64(w)*int64(h) > maxImagePixels {
		return fmt.Errorf("%s: %w: its header claims %dx%d pixels, more than OpenCV decodes (%d a side, %d in all)",
			name, ErrImage, w, h, maxImageSide, maxImagePixels)
	}
	return nil
}
