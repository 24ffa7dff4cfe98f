# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def total(x, **extra):
    return x


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = total(a[0])
