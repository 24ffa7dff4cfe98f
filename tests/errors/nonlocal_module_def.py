# ARGS: check %s
from numba import cuda


@cuda.jit("void(float64[:])")
def k(res):
    nonlocal res
    res[0] = 1.0
