"""Inline CUDA C through cuda.CUSource, linked with link= given one object
(not a list), as numba-cuda allows.  Run on the GPU by
tests/gpu/run_gpu_suite.sh (--target cuda)."""
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

# RUN: kernel --grid 1 --block 32 r=zeros:int32:32 x=arange:int32:32
# EXPECT: r: int32[32] [0, 2, 4, ..., 62] sum=992 crc=ce22aec7
#   (computed in Python from: [2 * i for i in range(32)])


@cuda.jit
def kernel(r, x):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = times2(x[i])
