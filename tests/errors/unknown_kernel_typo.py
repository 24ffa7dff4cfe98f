# ARGS: ptx %s:add_kernal
from numba import cuda


@cuda.jit("void(float32[:])")
def add_kernel(a):
    a[0] = 1
