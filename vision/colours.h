#ifndef TABLEREF_COLOURS_H
#define TABLEREF_COLOURS_H
#ifdef __cplusplus
extern "C" {
#endif
// Classifies n pixels of 8-bit Lab (three bytes each) by the colour table
// lut (one bit for each of k kinds, by cell of 1 << shift units each way,
// cells cells a side): masks[i][p] is 255 where pixel p may be of kind i,
// else 0.
void tableref_classify(const unsigned char *lab, int n, const unsigned long long *lut, int shift, int cells,
                       unsigned char **masks, int k);
#ifdef __cplusplus
}
#endif
#endif
