# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit("void(flaot32[:])")
def k(a):
    a[0] = 1
