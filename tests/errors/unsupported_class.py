# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    class Point:
        x = 0
    a[0] = 1
