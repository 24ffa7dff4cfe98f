# ARGS: check %s
# Complex constant arrays fold + - * / with a number; floor division of
# complex numbers is a TypeError in NumPy, refused by name here.
import numpy as np
from numba import cuda

CFLOOR = np.arange(3, dtype=np.complex64) // 2


@cuda.jit("void(complex64[::1])")
def k(out):
    out[0] = CFLOOR[0]
