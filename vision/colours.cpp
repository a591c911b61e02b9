#include "colours.h"

void tableref_classify(const unsigned char *lab, int n, const unsigned long long *lut, int shift, int cells,
                       unsigned char **masks, int k) {
    for (int p = 0; p < n; p++) {
        const unsigned char *q = lab + 3 * p;
        unsigned long long bits = lut[((q[0] >> shift) * cells + (q[1] >> shift)) * cells + (q[2] >> shift)];
        for (int i = 0; i < k; i++) {
            masks[i][p] = (unsigned char)(0 - (unsigned char)((bits >> i) & 1));
        }
    }
}
