# ARGS: run %s:scale --grid 1 --block 4 --device one zeros:f32:4 zeros:f32:4
"""kjit run: --device takes a device number"""
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def scale(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
