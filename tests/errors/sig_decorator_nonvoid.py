# ARGS: check %s
from numba import cuda


@cuda.jit("int32(int32[:])")
def k(a):
    a[0] = 1
