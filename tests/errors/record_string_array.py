"""Records: a field that is an array of strings (('names', 'U4', (2,)))
is refused where the dtype is written, naming what kernels can use"""
import numpy as np
import numba
from numba import cuda

grid = numba.from_dtype(np.dtype([('names', 'U4', (2,))]))

# ARGS: check %s


@cuda.jit("void(grid[:])")
def strings_array(a):
    a[0].names[0] = "ab"
