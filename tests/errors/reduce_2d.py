"""a reduction takes 1-d arrays only, as Numba's"""
# ARGS: run %s:sum_reduce --target cpu x=zeros:float32:4x4
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b
