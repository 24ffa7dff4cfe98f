# ARGS: check %s
import cmath
from numba import cuda


@cuda.jit("void(complex128[:], complex128)")
def k(a, z):
    a[0] = cmath.exp2(z)
