# ARGS: check %s
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:], int64[:])")
def k(a, b):
    c = a[np.newaxis, :]
