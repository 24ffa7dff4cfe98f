# ARGS: check %s
import cmath
import math
from numba import cuda


@cuda.jit("void(complex128[:], complex128)")
def k(a, z):
    a[0] = math.sqrt(z)
