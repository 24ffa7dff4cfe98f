# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    total += a[0]
    a[0] = total
