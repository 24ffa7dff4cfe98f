# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit("void(int32[:])")
def k(a):
    i = cuda.grid(4)
    a[0] = i
