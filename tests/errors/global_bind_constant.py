"""kjit run --global on a module constant: it already folds, so it is not
a global the host binds."""
# ARGS: run %s:k --grid 1 --block 4 --target cpu --global N=arange:f64:4 out=zeros:f64:4
import numpy as np
from numba import cuda

N = 4
A = np.random.rand(N)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    out[i] = A[i] * N
