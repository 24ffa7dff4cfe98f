# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    v = cuda.float2(a[0], a[1])
    if v == v:
        a[0] = len(v)
    x, y = v
    a[1] = (v + v).x
