package vision

// #cgo pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include "threads.h"
import "C"

// SetOpenCVThreads sets how many threads OpenCV's own functions may use
// (0: one per core, OpenCV's default). When several detectors run at once,
// one thread each avoids every frame fighting the others for the cores.
// gocv 0.32 has no binding for cv::setNumThreads, hence this one.
func SetOpenCVThreads(n int) { C.tableref_set_num_threads(C.int(n)) }

// OpenCVThreads returns how many threads OpenCV's functions may use.
func OpenCVThreads() int { return int(C.tableref_get_num_threads()) }
