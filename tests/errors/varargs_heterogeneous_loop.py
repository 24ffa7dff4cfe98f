# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def vsum(*args):
    s = 0.0
    for v in args:
        s += v
    return s


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = vsum(1, 2.5)
