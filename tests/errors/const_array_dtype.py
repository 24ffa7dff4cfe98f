# ARGS: check %s
import numpy as np
from numba import cuda

Z = np.array([1.0, 2.0], dtype=np.float16)


@cuda.jit("void(float32[::1])")
def k(out):
    out[0] = cuda.const.array_like(Z)[0]
