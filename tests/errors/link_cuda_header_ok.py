# ARGS: ptx %s:kernel --arch sm_80 --emit cubin -o /dev/null
# Not an error: inline CUDA C including a CUDA header that needs libcu++
# (curand_kernel.h includes cuda/std/...), and two CUSource objects linked.
from numba import cuda

rng_cu = cuda.CUSource("""
#include <curand_kernel.h>
extern "C" __device__
int random_number(unsigned int *out, unsigned long long seed)
{
  curandStateXORWOW_t state;
  curand_init(seed, 1, 0, &state);
  *out = curand(&state);
  return 0;
}""")

times3_cu = cuda.CUSource("""
extern "C" __device__ int times3(int *out, int a) { *out = a * 3; return 0; }
""")

random_number = cuda.declare_device("random_number", "uint32(uint64)", link=[rng_cu])
times3 = cuda.declare_device("times3", "int32(int32)", link=times3_cu)


@cuda.jit("void(uint32[::1], int64)")
def kernel(r, seed):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = random_number(seed) + times3(i)
