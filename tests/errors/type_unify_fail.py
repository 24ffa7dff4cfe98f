# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    x = 1
    if a[0] > 0:
        x = a
    a[0] = x[0]
