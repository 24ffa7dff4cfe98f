# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    for i in range(0, 10, 1, 2):
        a[i] = 0
