# ARGS: check %s
from numba import cuda


@cuda.jit("void(float64[:])")
def k(res):
    x = 1000

    def closure():
        nonlocal x
        x = 0

    closure()
    res[0] = x
