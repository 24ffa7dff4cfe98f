"""kjit run: a block over 1024 threads is refused before anything runs"""
from numba import cuda

# ARGS: run %s:scale --grid 1 --block 2048 --target cpu zeros:f32:4 zeros:f32:4


@cuda.jit("void(float32[::1], float32[::1])")
def scale(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
