# ARGS: check %s
from numba import cuda


@cuda.jit("void(int64[:], int64, float64)")
def k(a, x, y):
    t = (x, y)
    a[0] = 3 in t
