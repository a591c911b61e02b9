#include <opencv2/imgproc.hpp>
#include "canny.h"

void tableref_canny_gradient(void *dx, void *dy, void *edges, double lo, double hi) {
	cv::Canny(*static_cast<cv::Mat *>(dx), *static_cast<cv::Mat *>(dy), *static_cast<cv::Mat *>(edges), lo, hi, false);
}
