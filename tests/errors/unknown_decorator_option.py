# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])", fastmaths=True)
def k(a):
    a[0] = 1
