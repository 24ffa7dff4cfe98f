# ARGS: check %s
# bfloat16 has numba-cuda's + - * / and comparisons only (// % ** are not
# bound), between two bfloat16 values: with another number numba-cuda 0.68
# types them but cannot lower them (NotImplementedError, asked on a GPU
# machine); it does not convert to float16 or bool, nor bool to it in a call.
from numba import cuda, float16, float32
from numba.cuda.bf16 import bfloat16, hadd


@cuda.jit("void(float32[:])")
def k(a):
    x = bfloat16(a[0])
    a[0] = x % 2.0
    a[1] = float16(x)
    a[2] = hadd(x, True)
    a[3] = x + 1.0
    a[4] = x * float32(2.5)
    a[5] = x < 0.25
