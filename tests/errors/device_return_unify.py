# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def pick(x, arr):
    if x > 0:
        return 1
    return arr


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = pick(a[0], a)
