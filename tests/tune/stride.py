# A grid-stride kernel (cuda.gridsize): its grid is free, so kjit tune also
# tries grids of a multiple of the SM count.
from numba import cuda


@cuda.jit
def saxpy_stride(a, x, y):
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, y.size, step):
        y[i] = a * x[i] + y[i]
