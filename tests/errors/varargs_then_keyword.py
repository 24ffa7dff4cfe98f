# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def total(*args, scale=2.0):
    return args[0] * scale


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = total(a[0], scale=3.0)
