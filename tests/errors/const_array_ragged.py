# ARGS: check %s
import numpy as np
from numba import cuda

TABLE = np.array([[1.0, 2.0, 3.0], [4.0, 5.0]], dtype=np.float32)


@cuda.jit("void(float32[::1])")
def k(out):
    t = cuda.const.array_like(TABLE)
    out[0] = t[0, 0]
