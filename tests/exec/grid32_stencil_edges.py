"""The stencil guard `0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1` of
bench/gpu/kernels/stencil.py with both grid dimensions (32-bit compares
under the grid32 and fits32 launch facts, docs/internals.md): interior
points get 1, border points 2, threads past the 5 x 7 array nothing."""
# RUN: edges --grid 2,2 --block 4,4 a=zeros:float32:5x7 out=zeros:int32:5x7
# EXPECT: out: int32[5x7] [2, 2, 2, ..., 2] sum=55 crc=a03cc270
#   (computed in Python from: [1 if 0 < i < 4 and 0 < j < 6 else 2 for i in range(5) for j in range(7)])
from numba import cuda


@cuda.jit
def edges(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = 1
    elif i < a.shape[0] and j < a.shape[1]:
        out[i, j] = 2
