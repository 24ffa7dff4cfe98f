"""kjit run: tuple arguments hold numbers and tuples; an array element is
refused by name"""
from numba import cuda

# ARGS: run %s:k --grid 1 --block 1 --target cpu "t=(zeros:f32:4, 1)" out=zeros:f64:1


@cuda.jit
def k(t, out):
    out[0] = t[1]
