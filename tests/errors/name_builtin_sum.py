# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:], float32[:])")
def k(a, s):
    s[0] = sum(a)
