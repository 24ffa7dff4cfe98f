# ARGS: ptx %s:k --arch sm_75
# bfloat16 needs compute capability 8.0, as numba-cuda requires.
from numba import cuda, float32
from numba.cuda.bf16 import bfloat16


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = float32(bfloat16(a[0]) * bfloat16(a[1]))
