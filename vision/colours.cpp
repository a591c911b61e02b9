#include "colours.h"

#include <vector>

void tableref_classify(const unsigned char *lab, int w, int h, const unsigned long long *lut, int tcells,
                       const unsigned char *level, int block, int bw, int shift, int cells,
                       unsigned char **masks, int k) {
    // A row at a time: its cells' bits, each block's from the table of
    // its light, then each kind's mask over the row in one loop the
    // compiler vectorises.
    std::vector<unsigned long long> bits(w);
    for (int y = 0; y < h; y++) {
        const unsigned char *lv = level + (y / block) * bw;
        const unsigned char *q = lab + 3 * (long)y * w;
        for (int x0 = 0; x0 < w; x0 += block) {
            const unsigned long long *t = lut + (long)lv[x0 / block] * tcells;
            int x1 = x0 + block < w ? x0 + block : w;
            for (int x = x0; x < x1; x++, q += 3) {
                bits[x] = t[((q[0] >> shift) * cells + (q[1] >> shift)) * cells + (q[2] >> shift)];
            }
        }
        const unsigned long long *__restrict b = bits.data();
        for (int i = 0; i < k; i++) {
            unsigned char *__restrict out = masks[i] + (long)y * w;
            for (int x = 0; x < w; x++) {
                out[x] = (unsigned char)(0 - (unsigned char)((b[x] >> i) & 1));
            }
        }
    }
}
