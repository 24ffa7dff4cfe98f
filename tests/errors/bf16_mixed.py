# ARGS: check %s
# bfloat16 has numba-cuda's + - * / and comparisons only (// % ** are not
# bound); it does not convert to float16 or bool, nor bool to it in a call.
from numba import cuda, float16
from numba.cuda.bf16 import bfloat16, hadd


@cuda.jit("void(float32[:])")
def k(a):
    x = bfloat16(a[0])
    a[0] = x % 2.0
    a[1] = float16(x)
    a[2] = hadd(x, True)
