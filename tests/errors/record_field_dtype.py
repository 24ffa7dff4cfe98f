"""Records: a structured dtype with a field kjit has no type for (a
Python object) is refused where the signature names it, with what fields
hold"""
import numpy as np
import numba
from numba import cuda

bad = numba.from_dtype(np.dtype([('name', 'O'), ('x', np.float32)]))

# ARGS: check %s


@cuda.jit("void(bad[:])")
def strings(a):
    a[0].x = 1
