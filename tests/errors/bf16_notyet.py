# ARGS: check %s
from numba import cuda
from numba.cuda.bf16 import bfloat16


@cuda.jit("void(float32[:])")
def k(a):
    x = bfloat16(a[0])
    a[0] = cuda.bf16.hadd(x, x)
