"""isinstance(): a class kjit cannot resolve to a type, a variable of a
type Numba's isinstance does not take, and the wrong number of arguments
are refused by name"""
import numpy as np
import numba
from numba import cuda

rec = numba.from_dtype(np.dtype([('x', np.float32)]))

# ARGS: check %s


@cuda.jit("void(float32[:])")
def ndarray_class(a):
    if isinstance(a, np.ndarray):
        a[0] = 1


@cuda.jit("void(rec[:], float32[:])")
def record_var(r, a):
    a[0] = isinstance(r[0], float)


@cuda.jit("void(float32[:])")
def arity(a):
    a[0] = isinstance(a[0])
