"""A @cuda.reduce function of a package module."""
from numba import cuda


@cuda.reduce
def sum_op(a, b):
    return a + b
