# ARGS: check %s
import numpy as np
from numba import cuda


@cuda.jit("void(float32[:], float32[:])")
def k(a, out):
    np.sqrt(a, out[0])
