# ARGS: check %s
from numba import cuda

COUNT = 0


@cuda.jit("void(int32[:])")
def k(a):
    global COUNT
    a[0] = COUNT
