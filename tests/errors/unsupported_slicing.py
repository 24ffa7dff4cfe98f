# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    b = a[1:3]
    b[0] = 1
