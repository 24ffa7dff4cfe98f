/* kjit IR is a stage of Python kernels only.
# ARGS: ptx %s --emit kir
 */
extern "C" __global__ void k(float *x) { x[0] = 1; }
