# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = fact(5)
