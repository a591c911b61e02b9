#include <opencv2/core.hpp>
#include "threads.h"

void tableref_set_num_threads(int n) { cv::setNumThreads(n); }
int tableref_get_num_threads(void) { return cv::getNumThreads(); }
