"""kjit run: an -o path whose folder is missing fails before the launch"""
from numba import cuda

# ARGS: run %s:scale --grid 1 --block 32 --target cpu x=zeros:f32:4 out=zeros:f32:4 -o out=no/such/dir/out.npy


@cuda.jit("void(float32[::1], float32[::1])")
def scale(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
