# ARGS: ptx %s:run.scale --sig "void(float32[:])"
# A kernel defined inside a host function reads a value the function
# computes at run time: the error names the variable and the function.
import numpy as np
from numba import cuda


def run(x):
    n, m = x.shape

    @cuda.jit
    def scale(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= m

    scale[1, 32](x.ravel())
