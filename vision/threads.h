#ifndef TABLEREF_THREADS_H
#define TABLEREF_THREADS_H
#ifdef __cplusplus
extern "C" {
#endif
void tableref_set_num_threads(int n);
int tableref_get_num_threads(void);
#ifdef __cplusplus
}
#endif
#endif
