"""kjit run: a structured .npy file is an array of records; a field the
record does not have is refused with Numba's message"""
from numba import cuda

# ARGS: run %s:k --grid 1 --block 1 --target cpu a=data/npy/record_xy.npy


@cuda.jit
def k(a):
    a[0].z = a[1].x
