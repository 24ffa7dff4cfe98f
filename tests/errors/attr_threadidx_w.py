# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    i = cuda.threadIdx.w
    a[i] = 0
