"""Records (structured dtypes): what Numba refuses is refused with its
message: an unknown field, a field that is not aligned (CUDA loads must
be), a complex value into a float field, a whole nested array assigned, a
field chosen at run time, an attribute of an array that is no field"""
import numpy as np
import numba
from numba import cuda

dt = np.dtype([('x', np.float32), ('y', np.int32), ('v', np.float32, 2)], align=True)
rec_t = numba.from_dtype(dt)
packed = numba.from_dtype(np.dtype([('a', np.int32), ('b', np.float64)]))

# ARGS: check %s


@cuda.jit("void(rec_t[:], int64)")
def fields(a, i):
    a[i].q = 1
    a[i].x = 1j
    a[i].v = 1.0
    a[0].y = a[i][i]
    a[0].x = a.H


@cuda.jit("void(packed[:])")
def misaligned(a):
    a[0].a = a[0].b

