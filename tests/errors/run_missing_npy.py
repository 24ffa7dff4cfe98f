"""kjit run: a missing .npy names the argument and the file"""
from numba import cuda

# ARGS: run %s:scale --grid 1 --block 32 --target cpu x=no_such_file.npy out=zeros:f32:4


@cuda.jit("void(float32[::1], float32[::1])")
def scale(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
