# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    try:
        a[0] = 1
    except IndexError:
        pass
