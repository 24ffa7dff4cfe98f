# ARGS: check %s
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:], float64)")
def k(a, b):
    c = a[1.5:]
