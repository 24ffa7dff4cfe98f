# ARGS: check %s
# Operators take two bfloat16 values; with another number type (where
# Numba's overload resolution is not settled) kjit asks for a conversion.
# bfloat16 does not convert to float16 or bool.
from numba import cuda, float16
from numba.cuda.bf16 import bfloat16, hadd


@cuda.jit("void(float32[:])")
def k(a):
    x = bfloat16(a[0])
    a[0] = x + 1.0
    a[1] = float16(x)
    a[2] = hadd(x, True)
