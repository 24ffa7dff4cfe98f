# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    if (n := a.size) > 4:
        a[0] = n
