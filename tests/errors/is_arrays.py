# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:], float32[:])")
def k(a, b):
    if a is b:
        a[0] = 1
