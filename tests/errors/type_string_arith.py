# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    x = "n = " + 1
    a[0] = 0
