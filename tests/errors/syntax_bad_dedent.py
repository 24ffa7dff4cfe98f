# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    if a[0] > 0:
        a[0] = 1
      a[0] = 2
