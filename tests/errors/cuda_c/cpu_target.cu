/* Arguments that fit, on the cpu target: CUDA C runs on a GPU only.
# ARGS: run %s:scale --target cpu --grid 1 --block 4 x=zeros:float32:4 f=2 n=4
 */
extern "C" __global__ void scale(float *x, float f, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] *= f;
}
