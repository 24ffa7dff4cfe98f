/* A kernel name the file does not have: the message lists its kernels.
# ARGS: ptx %s:vector_ad --arch sm_80
 */
extern "C" __global__ void vector_add(const float *a, const float *b, float *out, int n) {}
template <typename T> __global__ void scale(T *x, T f) {}
