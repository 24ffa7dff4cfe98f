# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    x = a[0]
    del x
