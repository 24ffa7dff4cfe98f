# ARGS: ptx %s:nope
from numba import cuda


@cuda.jit("void(float32[:])")
def add_kernel(a):
    a[0] = 1


@cuda.jit("void(float32[:])")
def scale_kernel(a):
    a[0] *= 2
