# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    xs = [1, 2, 3]
    a[0] = xs[0]
