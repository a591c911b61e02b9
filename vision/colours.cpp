#include "colours.h"

void tableref_classify(const unsigned char *lab, int n, const unsigned long long *lut, int shift, int cells,
                       unsigned char **masks, int k) {
    // A block of pixels at a time: their cells' bits, then each kind's
    // mask over the block in one loop the compiler vectorises.
    enum { block = 512 };
    unsigned long long bits[block];
    for (int p0 = 0; p0 < n; p0 += block) {
        int m = n - p0 < block ? n - p0 : block;
        const unsigned char *q = lab + 3 * p0;
        for (int j = 0; j < m; j++, q += 3) {
            bits[j] = lut[((q[0] >> shift) * cells + (q[1] >> shift)) * cells + (q[2] >> shift)];
        }
        for (int i = 0; i < k; i++) {
            unsigned char *__restrict out = masks[i] + p0;
            for (int j = 0; j < m; j++) {
                out[j] = (unsigned char)(0 - (unsigned char)((bits[j] >> i) & 1));
            }
        }
    }
}
