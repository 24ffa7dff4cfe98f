"""A module of device functions imported by kernels/main.py (--path)."""
from numba import cuda


@cuda.jit(device=True)
def twice(x):
    return 2 * x
