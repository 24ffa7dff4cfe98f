"""kjit ptx on a @cuda.reduce function: --sig names one 1-d array type"""
# ARGS: ptx %s:sum_reduce --sig "float32[:, :]"
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b
