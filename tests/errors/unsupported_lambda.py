# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    f = lambda x: x + 1
    a[0] = f(a[0])
