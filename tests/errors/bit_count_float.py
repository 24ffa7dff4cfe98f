# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:], float32)")
def k(a, x):
    a[0] = x.bit_count()
