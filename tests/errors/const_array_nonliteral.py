# ARGS: check %s
import numpy as np
from numba import cuda

N = 4
W = np.array([1.0, float(N), np.random.rand()])


@cuda.jit("void(float64[::1])")
def k(out):
    w = cuda.const.array_like(W)
    out[0] = w[1]
