# ARGS: check %s
from numba import cuda


@cuda.jit("void(float64[:], float64)")
def k(a, x):
    if x.is_integer():
        a[0] = x
