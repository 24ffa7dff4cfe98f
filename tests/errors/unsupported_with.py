# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    with open("log.txt") as f:
        a[0] = 1
