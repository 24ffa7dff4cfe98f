# ARGS: check %s
from numba import cuda


@cuda.jit("void(float64[:])")
def k(res):
    def outer(x):
        def inner(y):
            return y * 2
        return inner(x) + 1

    res[0] = outer(res[0])
