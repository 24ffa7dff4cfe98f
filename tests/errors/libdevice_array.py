# ARGS: check %s
from numba import cuda


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = cuda.libdevice.exp(a)
