# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

TPB = 16


@cuda.jit("void(float32[:], int32)")
def k(a, n):
    buf = cuda.shared.array((TPB, n), float32)
    a[0] = buf[0, 0]
