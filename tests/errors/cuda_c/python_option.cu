/* --fastmath is an option of Python kernels; NVRTC's is --use_fast_math.
# ARGS: ptx %s --fastmath
 */
extern "C" __global__ void k(float *x) { x[0] = 1; }
