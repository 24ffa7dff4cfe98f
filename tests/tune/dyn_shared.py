# Dynamic shared memory sized per thread (--shared): kjit tune scales it
# with the block, and also tries the size given on smaller blocks.
from numba import cuda, float32


@cuda.jit
def stage(x, out):
    buf = cuda.shared.array(0, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < x.size:
        buf[t] = x[i] * 3.0
    cuda.syncthreads()
    if i < x.size:
        out[i] = buf[t]
