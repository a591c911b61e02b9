#ifndef TABLEREF_COLOURS_H
#define TABLEREF_COLOURS_H
#ifdef __cplusplus
extern "C" {
#endif
// Classifies the w x h pixels of 8-bit Lab (three bytes each) by the
// colour tables lut (one bit for each of k kinds, by cell of 1 << shift
// units each way, cells cells a side; one table of tcells cells for each
// light level, one after the other): masks[i][p] is 255 where pixel p may
// be of kind i under the light of its block (level, one byte for each
// block x block pixels, bw blocks a row), else 0.
void tableref_classify(const unsigned char *lab, int w, int h, const unsigned long long *lut, int tcells,
                       const unsigned char *level, int block, int bw, int shift, int cells,
                       unsigned char **masks, int k);
#ifdef __cplusplus
}
#endif
#endif
