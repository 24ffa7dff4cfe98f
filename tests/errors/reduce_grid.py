"""--grid/--block do not apply to a reduction"""
# ARGS: run %s:sum_reduce --target cpu --grid 4 --block 32 x=arange:float32:10
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b
