# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    import math
    a[0] = 1
