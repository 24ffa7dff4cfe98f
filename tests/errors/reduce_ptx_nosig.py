"""kjit ptx on a @cuda.reduce function needs the array type"""
# ARGS: ptx %s:sum_reduce
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b
