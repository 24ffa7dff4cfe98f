# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit(device=True)
def inc(x):
    return x + 1


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = inc(a)
