"""Vector add, one element per thread, with a tail block (n not a multiple
of the block)."""
from numba import cuda

# RUN: add_kernel --grid 4 --block 256 x=arange:float32:1000 y=full:float32:1000:2 out=zeros:float32:1000
# EXPECT: out: float32[1000] [2, 3, 4, ..., 1001] sum=501500 crc=419fae67
#   (computed in Python from: [i + 2.0 for i in range(1000)])


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]
