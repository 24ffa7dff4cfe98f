# ARGS: check %s
# reshape() takes ints or one tuple of ints: a float shape is a typing error.
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def floats(a, x):
    b = a.reshape(x, 2)
    b[0, 0] = 1


@cuda.jit("void(float32[::1], float64)")
def float_tuple(a, x):
    b = a.reshape((2, x))
    b[0, 0] = 1
