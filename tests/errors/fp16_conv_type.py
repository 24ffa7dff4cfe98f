# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:], float32[:])")
def k(h, f):
    h[0] = cuda.fp16.__half2float(f[0])
