"""Imported by tests/errors/module_*.py (not an error test itself)."""
from numba import cuda

TPB = 16


@cuda.jit(device=True)
def helper(x):
    return x + TPB
