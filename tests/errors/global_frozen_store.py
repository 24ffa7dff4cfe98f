"""A NumPy array global bound by the host is frozen as a read-only
constant, as Numba freezes it: a store into it is an error."""
# ARGS: run %s:k --grid 1 --block 4 --target cpu --global A=arange:f64:4 out=zeros:f64:4
import numpy as np
from numba import cuda

A = np.random.rand(4)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    A[i] = 1.0
    out[i] = A[i]
