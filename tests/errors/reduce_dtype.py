"""a reduction over a dtype its kernels do not take"""
# ARGS: run %s:sum_reduce --target cpu x=zeros:complex64:8
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b
