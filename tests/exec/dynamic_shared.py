"""Dynamic shared memory (shape 0, sized by --shared): each block reverses
its 64 elements."""
from numba import cuda, float32

# RUN: reverse_blocks --grid 4 --block 64 --shared 256 x=arange:float32:256
# EXPECT: x: float32[256] [63, 62, 61, ..., 192] sum=32640 crc=e372b8cf
#   (computed in Python from: [float(64 * (k // 64) + 63 - k % 64) for k in range(256)])


@cuda.jit
def reverse_blocks(x):
    s = cuda.shared.array(0, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i]
    cuda.syncthreads()
    x[i] = s[cuda.blockDim.x - 1 - t]
