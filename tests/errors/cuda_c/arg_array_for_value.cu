/* An array for a value parameter.
# ARGS: run %s:scale --target cpu --grid 1 --block 4 x=zeros:float32:4 f=zeros:float32:4 n=4
 */
extern "C" __global__ void scale(float *x, float f, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] *= f;
}
