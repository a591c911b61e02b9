#ifndef TABLEREF_CANNY_H
#define TABLEREF_CANNY_H
#ifdef __cplusplus
extern "C" {
#endif
// Canny's thinning and hysteresis on a gradient already computed (CV_16S
// dx and dy), with its L1 magnitude.
void tableref_canny_gradient(void *dx, void *dy, void *edges, double lo, double hi);
#ifdef __cplusplus
}
#endif
#endif
