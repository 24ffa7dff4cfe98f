# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    a[1:3] += 1
