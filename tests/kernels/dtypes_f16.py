"""float16 storage and arithmetic."""
from numba import cuda
import numpy as np


@cuda.jit("void(float16[:], float16[:], float16[:])")
def add_half(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i] * a[i]


if __name__ == "__main__":
    pass
