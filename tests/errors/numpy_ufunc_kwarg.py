# ARGS: check %s
import numpy as np
from numba import cuda


@cuda.jit("void(float64[:])")
def k(out):
    out[0] = np.exp(1.0, dtype=np.float32)
