# A 2-D kernel (cuda.grid(2)): kjit tune tries 2-D block shapes.
from numba import cuda


@cuda.jit
def scale2d(a, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = 2.0 * a[i, j] + 1.0
