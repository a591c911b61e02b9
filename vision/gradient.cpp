#include <opencv2/imgproc.hpp>
#include "gradient.h"

void tableref_canny_gradient(void *dx, void *dy, void *edges, double lo, double hi) {
	cv::Canny(*static_cast<cv::Mat *>(dx), *static_cast<cv::Mat *>(dy), *static_cast<cv::Mat *>(edges), lo, hi, false);
}

// Gradients are 3x3 Sobel of 8-bit images (at most 1020 each way): the
// squares cannot overflow an int.
void tableref_keep_strongest(short *kx, short *ky, const short *gx, const short *gy, int n, int k) {
	for (int i = 0; i < n; i++) {
		int x = k * gx[i], y = k * gy[i];
		int ox = kx[i], oy = ky[i];
		bool stronger = x * x + y * y > ox * ox + oy * oy;
		x = x > 32767 ? 32767 : (x < -32767 ? -32767 : x);
		y = y > 32767 ? 32767 : (y < -32767 ? -32767 : y);
		kx[i] = stronger ? (short)x : kx[i];
		ky[i] = stronger ? (short)y : ky[i];
	}
}
