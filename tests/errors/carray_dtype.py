# ARGS: ptx %s:k
# carray(p, shape, dtype): the dtype must be the pointer's (Numba:
# "mismatching dtype"), and carray takes a raw pointer, not an array.
import numpy as np
from numba import cuda, types
from numba.np.numpy_support import carray


@cuda.jit(types.void(types.CPointer(types.float32), types.float32[:]))
def k(p, x):
    a = carray(p, 4, dtype=np.float64)
    b = carray(x, 4)
    a[0] = b[0]
