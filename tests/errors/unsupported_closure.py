# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    def inner(x):
        return x + 1
    g = inner
    a[0] = g(a[0])
