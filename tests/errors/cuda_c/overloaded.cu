/* An overloaded kernel named by its bare name.
# ARGS: ptx %s:fill --arch sm_80
 */
__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }
__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }
