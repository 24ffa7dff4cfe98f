"""a typing error in the binary function points into it, with a note that
names the element types it was called with"""
# ARGS: run %s:bad_reduce --target cpu x=arange:float32:10
from numba import cuda


@cuda.reduce
def bad_reduce(a, b):
    return a.shape[0] + b
