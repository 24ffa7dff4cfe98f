# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit("void(int32[:])")
def k(a):
    t = (1, 2)
    a[0] = t[5]
