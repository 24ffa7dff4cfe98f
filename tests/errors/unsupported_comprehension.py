# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    xs = [a[i] * 2 for i in range(4)]
    a[0] = 0
