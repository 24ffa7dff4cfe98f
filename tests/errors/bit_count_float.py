# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = a[1].bit_count()
