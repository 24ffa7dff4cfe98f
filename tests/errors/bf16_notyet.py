# ARGS: check %s
# What kjit does not build of numba.cuda.bf16: the two-element
# __nv_bfloat162 functions, and the bfloat16 type as a value.
from numba import cuda
from numba.cuda.bf16 import bfloat16
from numba.cuda._internal.cuda_bf16 import __hadd2


@cuda.jit("void(float32[:])")
def k(a):
    x = bfloat16(a[0])
    t = bfloat16
    a[1] = __hadd2(x, x)
