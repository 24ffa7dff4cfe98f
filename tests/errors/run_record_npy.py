"""kjit run: a .npy file of a structured dtype (records) is refused by
name, with the workaround"""
from numba import cuda

# ARGS: run %s:k --grid 1 --block 1 --target cpu a=data/npy/record_xy.npy


@cuda.jit
def k(a):
    a[0] = a[1]
