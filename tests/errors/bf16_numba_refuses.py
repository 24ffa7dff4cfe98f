# ARGS: check %s
# What numba-cuda 0.68 refuses (asked on a GPU machine): bfloat16 local and
# shared arrays ("unsupported type: __nv_bfloat16").  kjit refuses them at
# compile time, with what to write instead (tests/errors/bf16_mixed.py: the
# operators with other numbers, refused for the same reason).
from numba import cuda
from numba.cuda.bf16 import bfloat16


@cuda.jit("void(float32[:])")
def k(a):
    sh = cuda.shared.array(16, bfloat16)
    loc = cuda.local.array(4, bfloat16)
    a[0] = sh[0] + loc[0]
