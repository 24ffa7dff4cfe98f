# ARGS: check %s
from numba import cuda, float32


@cuda.jit("void(float32[:])")
def k(a):
    buf = cuda.local.array(a.shape[0], float32)
    buf[0] = a[0]
