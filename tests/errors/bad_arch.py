# ARGS: ptx %s --arch sm_91
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = 1
