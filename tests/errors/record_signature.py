"""Records: a signature naming a record type (numba.from_dtype of a
structured dtype held in a module variable) is refused by name, with the
workaround"""
import numpy as np
import numba
from numba import cuda

dt = np.dtype([('x', np.float32), ('y', np.int32)], align=True)
rec_t = numba.from_dtype(dt)

# ARGS: check %s


@cuda.jit((rec_t[:],))
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i]


@cuda.jit("void(rec_t[:], int64)")
def touch(a, i):
    a[i] = a[i]
