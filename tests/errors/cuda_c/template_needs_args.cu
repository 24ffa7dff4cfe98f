/* A template kernel named without its template arguments.
# ARGS: ptx %s:scale --arch sm_80
 */
template <typename T>
__global__ void scale(T *x, T f, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] *= f;
}
