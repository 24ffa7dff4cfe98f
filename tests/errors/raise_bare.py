"""A bare `raise` (re-raise) and `raise ... from ...` are refused by name:
kernels handle no exceptions."""
# ARGS: check %s
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    if a[0] < 0:
        raise
    if a[0] > 9:
        raise ValueError("big") from None
