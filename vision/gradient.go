package vision

// The edge stage's two loops over every pixel's gradient that gocv 0.32
// does not offer, in C++.

// #cgo pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11 -O3
// #include "gradient.h"
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

// keepStrongest keeps in (kx, ky) whichever gradient is stronger, pixel by
// pixel; chroma gradients count double, as a and b vary less than L. In
// C++, where the compiler vectorises it: four times faster than in Go.
func keepStrongest(kx, ky, gx, gy []int16, chroma bool) {
	n := min(len(kx), len(ky), len(gx), len(gy))
	if n == 0 {
		return
	}
	k := 1
	if chroma {
		k = 2
	}
	C.tableref_keep_strongest((*C.short)(unsafe.Pointer(&kx[0])), (*C.short)(unsafe.Pointer(&ky[0])),
		(*C.short)(unsafe.Pointer(&gx[0])), (*C.short)(unsafe.Pointer(&gy[0])), C.int(n), C.int(k))
}
