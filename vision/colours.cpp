#include "colours.h"

void tableref_classify(const unsigned char *lab, int n, const unsigned long long *lut, int cell, int cells,
                       unsigned char **masks, int k) {
    const int shift = cell == 4 ? 2 : 0;
    for (int p = 0; p < n; p++) {
        const unsigned char *q = lab + 3 * p;
        int l, a, b;
        if (shift) {
            l = q[0] >> 2, a = q[1] >> 2, b = q[2] >> 2;
        } else {
            l = q[0] / cell, a = q[1] / cell, b = q[2] / cell;
        }
        unsigned long long bits = lut[(l * cells + a) * cells + b];
        for (int i = 0; i < k; i++) {
            masks[i][p] = (unsigned char)(0 - (unsigned char)((bits >> i) & 1));
        }
    }
}
