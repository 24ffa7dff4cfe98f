# ARGS: check %s
import math
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = math.sqrt(1.0, 2.0)
