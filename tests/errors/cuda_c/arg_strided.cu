/* A strided array (a Fortran-order .npy) for a pointer parameter.
# ARGS: run %s:scale --target cpu --grid 1 --block 4 x=data/npy/fortran_f8.npy f=2 n=4
 */
extern "C" __global__ void scale(double *x, double f, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] *= f;
}
