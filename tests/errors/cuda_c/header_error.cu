/* An error inside an included header is shown at the header's line.
# ARGS: ptx %s --arch sm_80
 */
#include "header_error.h"
extern "C" __global__ void k(float *x) { x[0] = helper(x[0]); }
