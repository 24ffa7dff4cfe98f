# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

A = np.empty(10)


@cuda.jit("void(float32[:])")
def k(a):
    a[0] = A[0]
