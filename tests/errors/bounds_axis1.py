"""boundscheck=True: a 2-D index past the end of axis 1 names the axis"""
from numba import cuda

# ARGS: run %s:k --target cpu --grid 1 --block 2,2 zeros:f64:2x2 1


@cuda.jit(boundscheck=True)
def k(grid, shift):
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    grid[i, j + shift] = 1.0
