"""a @cuda.reduce function called from a kernel (Numba cannot type it there
either): the hint says how to reduce, or how to call the binary function"""
# ARGS: check %s
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.jit("void(float32[:])")
def k(x):
    x[0] = sum_reduce(x[0], x[1])
