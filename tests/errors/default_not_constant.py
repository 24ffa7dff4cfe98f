# ARGS: check %s
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def scale(x, factor=np.zeros(3)):
    return x * factor[0]


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = scale(a[0])
