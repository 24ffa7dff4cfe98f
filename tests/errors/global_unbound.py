"""A global the host computes (a NumPy array from np.random, a device
array) must be bound before the kernel compiles; unbound, each use is an
error naming the global and how to bind it."""
# ARGS: run %s:k --grid 1 --block 4 --target cpu out=zeros:f64:4
import numpy as np
from numba import cuda

A = np.random.rand(4)
D = cuda.device_array(4, np.float64)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    out[i] = A[i] + D[i]
