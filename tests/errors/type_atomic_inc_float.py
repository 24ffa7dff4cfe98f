# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    cuda.atomic.inc(a, 0, 10.0)
