# ARGS: check %s
from numba import cuda


@cuda.jit("void(float64[:])")
def k(res):
    x = 0

    def f(x):
        nonlocal x
        x = 1

    f(2)
    res[0] = x
