"""Module-level arrays folded from constants (np.arange, np.linspace,
np.full, .reshape, .astype, arithmetic) read by a kernel with an eager
signature: constant memory in the PTX."""
import numpy as np
from numba import cuda

W = np.linspace(0.0, 1.0, 9, dtype=np.float32)
IDX = (np.arange(12).reshape(3, 4) * 3 + 1).astype(np.int32)
FILL = np.full((2, 2), 7, dtype=np.int16)


@cuda.jit("void(float32[::1])")
def weigh(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * W[i % 9] + IDX[i % 3, i % 4] + FILL[1, 1]
