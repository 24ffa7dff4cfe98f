# ARGS: check %s
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:], int64)")
def k(a, b):
    t = (1, 2.5)
    for x in t:
        a[0] += x
