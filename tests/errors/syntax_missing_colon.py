# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    i = cuda.grid(1)
    if i < a.size
        a[i] = 0
