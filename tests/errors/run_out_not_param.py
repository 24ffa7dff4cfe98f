"""kjit run: -o must name a parameter"""
from numba import cuda

# ARGS: run %s:scale --grid 1 --block 32 --target cpu zeros:f32:4 zeros:f32:4 -o y=y.npy


@cuda.jit("void(float32[::1], float32[::1])")
def scale(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
