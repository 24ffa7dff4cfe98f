# A 3-D kernel (cuda.grid(3)): kjit tune tries 3-D block shapes.
from numba import cuda


@cuda.jit
def fill3d(a):
    i, j, k = cuda.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        a[i, j, k] = i * 10000 + j * 100 + k
