"""Constant record arrays are read-only: a field written through a[i], a
record variable or a[i] = r is refused; a record literal with the wrong
number of values is refused where the kernel uses it"""
import numpy as np
from numba import cuda

CONST_RECORD = np.array([(1.0, 2), (3.0, 4)], dtype=[("x", float), ("y", int)])
SHORT = np.array([(1.0, 2), (3.0,)], dtype=[("x", float), ("y", int)])

# ARGS: check %s


@cuda.jit("void(float64[:])")
def field_write(A):
    C = cuda.const.array_like(CONST_RECORD)
    C[0]["x"] = A[0]


@cuda.jit("void(float64[:])")
def through_variable(A):
    C = cuda.const.array_like(CONST_RECORD)
    r = C[1]
    r.y = 3


@cuda.jit("void(float64[:])")
def record_copy(A):
    C = cuda.const.array_like(CONST_RECORD)
    C[1] = C[0]


@cuda.jit("void(float64[:])")
def short_record(A):
    C = cuda.const.array_like(SHORT)
    A[0] = C[0].x
