# ARGS: check %s
# Local and shared arrays of bfloat16 work; atomics on them do not (CUDA's
# bfloat16 atomicAdd is not bound), nor NumPy functions of a bfloat16.
from numba import cuda
import numpy as np
from numba.cuda.bf16 import bfloat16


@cuda.jit("void(float32[:])")
def k(a):
    sh = cuda.shared.array(16, bfloat16)
    sh[0] = a[0]
    cuda.atomic.add(sh, 0, bfloat16(1))
    a[1] = np.sin(sh[0])
