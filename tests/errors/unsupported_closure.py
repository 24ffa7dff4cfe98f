# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    def inner(x):
        return x + 1
    a[0] = inner(a[0])
