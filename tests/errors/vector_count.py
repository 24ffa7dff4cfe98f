# ARGS: check %s
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    v = cuda.float4(cuda.float2(a[0], a[1]), a[2])
    w = cuda.float4(cuda.int2(1, 2), 3.0, 4.0)
    a[0] = v.x + w.x
