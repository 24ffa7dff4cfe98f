# ARGS: check %s
from numba import cuda


@cuda.jit(device=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@cuda.jit(device=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = is_even(a[1])
