# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    x, y = cuda.grid(3)
    a[x] = y
