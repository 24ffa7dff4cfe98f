# ARGS: check %s
from numba import cuda, float32, int32
import numpy as np

@cuda.jit("void(int32[:])")
def k(a):
    a[0] = N


if __name__ == "__main__":
    N = 10
