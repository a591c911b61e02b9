#ifndef TABLEREF_GRADIENT_H
#define TABLEREF_GRADIENT_H
#ifdef __cplusplus
extern "C" {
#endif
// Canny's thinning and hysteresis on a gradient already computed (CV_16S
// dx and dy), with its L1 magnitude.
void tableref_canny_gradient(void *dx, void *dy, void *edges, double lo, double hi);
// Keeps in (kx, ky) whichever gradient is stronger, pixel by pixel, (gx,
// gy) counting k times.
void tableref_keep_strongest(short *kx, short *ky, const short *gx, const short *gy, int n, int k);
#ifdef __cplusplus
}
#endif
#endif
