"""2-D 5-point stencil on a 4096 x 4096 float32 grid (interior points only):
out[i, j] = 0.25 * (a[i-1, j] + a[i+1, j] + a[i, j-1] + a[i, j+1]).
Blocks of 32 x 8 threads; x is the column j, y the row i."""
from numba import cuda
import numpy as np

QUARTER = np.float32(0.25)


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def stencil5(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = QUARTER * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
