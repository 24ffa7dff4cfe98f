# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    s = {1, 2}
    a[0] = 0
