# ARGS: check %s
from numba import cuda


@cuda.jit("void(float64[:])")
def k(res):
    def f():
        nonlocal y
        y = 1.0

    f()
    res[0] = 1.0
