# ARGS: check %s
# reshape() takes ints or one tuple of ints, by position.
from numba import cuda
import numpy as np


@cuda.jit("void(float32[::1])")
def keyword(a):
    b = a.reshape(shape=(2, 2))
    b[0, 0] = 1


@cuda.jit("void(float32[::1])")
def nine(a):
    b = a.reshape(1, 1, 1, 1, 1, 1, 1, 2, 2)
    b[0, 0, 0, 0, 0, 0, 0, 0, 0] = 1


@cuda.jit("void(float32[::1])")
def np_order(a):
    b = np.reshape(a, (2, 2), order="F")
    b[0, 0] = 1
