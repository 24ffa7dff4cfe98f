# ARGS: run %s:helper --grid 1 --block 1 --target cpu 5
from numba import cuda


@cuda.jit(device=True)
def helper(x):
    return x + 1


@cuda.jit("void(int64[:])")
def k(a):
    a[0] = helper(a[0])
