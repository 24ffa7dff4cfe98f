/* An #include that cannot be found.
# ARGS: check %s
 */
#include "no_such_header.h"
extern "C" __global__ void k(float *x) { x[0] = 1; }
