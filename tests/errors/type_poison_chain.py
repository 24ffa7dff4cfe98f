# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit("void(int32[:])")
def k(a):
    for i in range(4):
        if i > 0:
            a[i] = c[0]
        b = a + 1
        c = b * 2
        a[0] = b[0] + c[0]
