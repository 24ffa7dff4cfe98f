# ARGS: ptx %s --fits32 --grid32
# ARGS: ptx %s --grid32
"""The grid32 variants (docs/internals.md): cuda.grid() and cuda.gridsize()
x in 32 bits, and the comparisons they meet (extents under fits32,
constants, sums of those) in 32 bits; grid-stride loops, 2-D and 3-D grids,
the hand-written blockIdx.x * blockDim.x + threadIdx.x."""
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def grid_stride(x, out):
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, x.size, step):
        out[i] = x[i] * 2


@cuda.jit("void(float32[:, ::1], float32[:, :, :])")
def grids(a, b):
    j, i = cuda.grid(2)
    x, y, z = cuda.grid(3)
    h = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1 and h - 3 >= -2:
        a[i, j] = 1
    if x < b.shape[0] and y < b.shape[1] and z < b.shape[2]:
        b[x, y, z] = a[0, 0]
