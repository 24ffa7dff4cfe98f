# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    v = cuda.float2(a[0], a[1])
    a[0] = v[0] + v.z
