# ARGS: check %s
import numpy as np
from numba import cuda


@cuda.jit("void(int64[:], float64[:])")
def k(a, x):
    a[0] = np.bitwise_and(a[1], x[0])
