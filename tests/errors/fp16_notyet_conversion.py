# ARGS: check %s
from numba import cuda, float16


@cuda.jit("void(float16[:], float32[:])")
def k(h, f):
    h[0] = cuda.fp16.__float2half_rz(f[0])
