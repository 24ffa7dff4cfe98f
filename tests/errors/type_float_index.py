# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    i = cuda.grid(1) * 0.5
    a[i] = 0
