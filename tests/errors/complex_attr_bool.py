# ARGS: check %s
import cmath
from numba import cuda


@cuda.jit("void(float64[:], boolean)")
def k(a, z):
    a[0] = z.imag
