"""Dynamic shared memory (size given at launch) used to reverse a block."""
from numba import cuda, float32, int32
import numpy as np


@cuda.jit("void(float32[:])")
def reverse_block(a):
    buf = cuda.shared.array(0, dtype=float32)
    t = cuda.threadIdx.x
    n = cuda.blockDim.x
    base = cuda.blockIdx.x * n
    if base + t < a.size:
        buf[t] = a[base + t]
    cuda.syncthreads()
    if base + n - 1 - t < a.size and base + t < a.size:
        a[base + t] = buf[n - 1 - t]


@cuda.jit("void(int32[:])")
def dynamic_int(a):
    buf = cuda.shared.array(shape=0, dtype=int32)
    t = cuda.threadIdx.x
    buf[t] = t * 2
    cuda.syncthreads()
    if t < a.size:
        a[t] = buf[cuda.blockDim.x - 1 - t]


if __name__ == "__main__":
    a = np.arange(256, dtype=np.float32)
    reverse_block[1, 256, 0, 256 * 4](a)
