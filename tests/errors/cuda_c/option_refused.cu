/* An NVRTC option kjit does not pass (it picks -arch itself).
# ARGS: check %s --nvrtc-opt -arch=compute_90
 */
extern "C" __global__ void k(float *x) { x[0] = 1; }
