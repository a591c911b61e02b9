package vision

// #cgo pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include "canny.h"
import "C"

import (
	"unsafe"

	"gocv.io/x/gocv"
)

// cannyGradient finds Canny's edges of a gradient already computed (dx and
// dy: CV_16S, the same size) into edges, with hysteresis thresholds lo and
// hi on its L1 magnitude. Given the 3x3 Sobel gradient of an image (border
// replicated) it gives exactly what Canny of the image gives, without
// computing the gradient again. gocv 0.32 binds only Canny of an image.
func cannyGradient(dx, dy gocv.Mat, edges *gocv.Mat, lo, hi float32) {
	C.tableref_canny_gradient(unsafe.Pointer(dx.Ptr()), unsafe.Pointer(dy.Ptr()), unsafe.Pointer(edges.Ptr()), C.double(lo), C.double(hi))
}
