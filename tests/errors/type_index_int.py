# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    x = 5
    a[0] = x[0]
