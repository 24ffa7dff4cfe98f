"""Whole-array reductions with @cuda.reduce (docs/cli.md, "Reductions")."""
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)
