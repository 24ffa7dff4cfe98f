"""kjit run: a tuple cannot be an input of a @vectorize function"""
from numba import vectorize

# ARGS: run %s:add --target cpu "a=(1, 2)" b=arange:f64:4


@vectorize
def add(a, b):
    return a + b
