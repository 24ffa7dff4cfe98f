/* A CUDA C kernel's C parameter list is its signature: --sig is refused.
# ARGS: ptx %s:k --sig "void(float32[::1])"
 */
extern "C" __global__ void k(float *x) { x[0] = 1; }
