# ARGS: check %s
import numpy as np
from numba import cuda


@cuda.jit("void(complex128[:], float64[:])")
def k(z, out):
    out[0] = np.maximum(z[0], 1.0)
