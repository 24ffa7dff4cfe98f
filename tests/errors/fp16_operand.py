# ARGS: check %s
import cmath
from numba import cuda


@cuda.jit("void(float16[:], float32)")
def k(a, z):
    a[0] = cuda.fp16.hadd(a[0], z)
