/* A float64 array for a float pointer: refused before anything runs,
 * naming the parameter (the check needs no GPU).
# ARGS: run %s:vector_add --target cpu --grid 1 --block 4 a=arange:float32:4 b=arange:float64:4 out=zeros:float32:4 n=4
 */
extern "C" __global__ void vector_add(const float *a, const float *b, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}
