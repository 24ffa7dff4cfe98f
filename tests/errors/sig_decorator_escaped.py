# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit("void(fl\x6fat32[:], flaot32)")
def k(a, b):
    a[0] = 1
