# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit("void(float32[:])")
def k(a):
    buf = cuda.local.array(2.5, float32)
    a[0] = buf[0]
