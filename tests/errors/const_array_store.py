# ARGS: check %s
import numpy as np
from numba import cuda

W = np.array([1.0, 2.0, 3.0], dtype=np.float32)


@cuda.jit("void(float32[::1])")
def k(out):
    w = cuda.const.array_like(W)
    w[0] = out[0]
