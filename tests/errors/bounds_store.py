"""debug=True: a store out of bounds (in a kernel that meets barriers) fails
the launch; the block still ends, nothing hangs"""
from numba import cuda

# ARGS: run %s:k --target cpu --grid 2 --block 8 zeros:f32:12


@cuda.jit(debug=True)
def k(out):
    i = cuda.grid(1)
    cuda.syncthreads()
    out[i] = i
    cuda.syncthreads()
