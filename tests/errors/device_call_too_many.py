# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit(device=True)
def add(x, y):
    return x + y


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = add(a[0], 1, 2)
