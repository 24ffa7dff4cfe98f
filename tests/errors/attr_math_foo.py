# ARGS: check %s
import math
from numba import cuda


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = math.foo(a[0])
