"""A 3-D grid of 3-D blocks writes each element's C-order index."""
from numba import cuda

# RUN: index3 --grid 2,2,2 --block 4,4,2 out=zeros:int64:4x8x8
# EXPECT: out: int64[4x8x8] [0, 1, 2, ..., 255] sum=32640 crc=1480cbca
#   (computed in Python from: list(range(256)))


@cuda.jit
def index3(out):
    x, y, z = cuda.grid(3)
    if z < out.shape[0] and y < out.shape[1] and x < out.shape[2]:
        out[z, y, x] = (z * out.shape[1] + y) * out.shape[2] + x
