# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def k(a, out):
    c = cuda.const.array_like(a)
    out[0] = c[0]
