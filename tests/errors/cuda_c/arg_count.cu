/* One argument too many.
# ARGS: run %s:vector_add --target cpu --grid 1 --block 4 arange:float32:4 arange:float32:4 zeros:float32:4 4 5
 */
extern "C" __global__ void vector_add(const float *a, const float *b, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}
