"""kjit run --global binds arrays only: a scalar VALUE is refused."""
# ARGS: run %s:k --grid 1 --block 4 --target cpu --global A=2.5 out=zeros:f64:4
import numpy as np
from numba import cuda

A = np.random.rand(4)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    out[i] = A[i]
