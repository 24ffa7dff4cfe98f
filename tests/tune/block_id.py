# A kernel whose result depends on the launch geometry: kjit tune refuses it.
from numba import cuda


@cuda.jit
def which_block(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cuda.blockIdx.x
