# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    for i in range(a.size):
        yield a[i]
