# ARGS: check %s
from numba import cuda


@cuda.jit("void(int8[:])")
def k(a):
    cuda.atomic.add(a, 0, 1)
