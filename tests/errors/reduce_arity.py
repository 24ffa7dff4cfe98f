"""@cuda.reduce on a function that does not take two arguments"""
# ARGS: check %s
from numba import cuda


@cuda.reduce
def sum3(a, b, c):
    return a + b + c
