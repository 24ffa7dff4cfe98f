"""kjit run --timeout takes a positive number of seconds"""
from numba import cuda

# ARGS: run %s:k --target cpu --grid 1 --block 1 --timeout -1 zeros:int32:1


@cuda.jit
def k(a):
    a[0] = 1
