# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def total(x, *, scale=2.0):
    return x * scale


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = total(a[0], 3.0)
