# ARGS: check %s
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:], float32[:])")
def k(a, b):
    for x in zip(zip(zip(zip(zip(zip(a, b), b), b), b), b), b):
        pass
