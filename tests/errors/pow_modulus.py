# ARGS: check %s
from numba import cuda


@cuda.jit("void(int64[:], int64)")
def k(a, x):
    a[0] = pow(x, 3, 7)
