# ARGS: ptx %s:kernel --arch sm_80 --emit cubin -o /dev/null
# Not an error: inline CUDA C (cuda.CUSource) linked by NVRTC + nvJitLink, no GPU needed.
from numba import cuda

times2_cu = cuda.CUSource("""
extern "C" __device__
int times2(int *out, int a)
{
  *out = a * 2;
  return 0;
}
""")

times2 = cuda.declare_device("times2", "int32(int32)", link=times2_cu)



@cuda.jit("void(int32[::1], int32[::1])")
def kernel(r, x):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = times2(x[i])
