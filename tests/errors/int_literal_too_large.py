# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    x = 100000000000000000000
    a[0] = x
