// Package vision owns the camera and every OpenCV Mat of tableref. It
// turns camera frames into models.Layout values: it finds every disk (even
// partly covered, seen at a tilt, with rims of any colour and art that
// itself contains circles), fits its outline to sub-pixel accuracy, works
// out the stacking order of overlapping disks, finds the tokens dropped on
// and between them, and maps everything to table centimetres through a
// calibration.
//
// Who closes what: every Mat created in this package is closed in this
// package, on every path, with a defer right after its creation; per-frame
// Mats of the Detector are allocated once and reused. No gocv type appears
// in a signature that a package outside vision must use: frames leave as
// image.Image, results as models.Layout.
//
// vision may import models, engine (for geometry) and calibration; it must
// not import ui or cmd.
package vision
