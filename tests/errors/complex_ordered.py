# ARGS: check %s
import cmath
from numba import cuda


@cuda.jit("void(float64[:], complex128)")
def k(a, z):
    a[0] = z < 1j
