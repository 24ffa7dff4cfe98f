"""kjit run: an empty tuple cannot be a kernel argument"""
from numba import cuda

# ARGS: run %s:k --grid 1 --block 1 --target cpu "t=()" out=zeros:f64:1


@cuda.jit
def k(t, out):
    out[0] = 1
