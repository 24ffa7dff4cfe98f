/* A number for a pointer parameter.
# ARGS: run %s:scale --target cpu --grid 1 --block 4 x=2.5 f=2 n=4
 */
extern "C" __global__ void scale(float *x, float f, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] *= f;
}
