# ARGS: check %s
from numba import cuda


@cuda.jit("void(int64[:], float64[:, :])")
def k(a, m):
    a[0] = 3.0 in m
