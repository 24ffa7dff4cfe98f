"""A 2-D float64 array doubled in place over a 2-D grid of 2-D blocks."""
from numba import cuda

# RUN: double_2d --grid 2,3 --block 8,8 m=arange:float64:20x13
# EXPECT: m: float64[20x13] [0, 2, 4, ..., 518] sum=67340 crc=c319c63a
#   (computed in Python from: [2.0 * i for i in range(260)])


@cuda.jit
def double_2d(m):
    i, j = cuda.grid(2)
    if i < m.shape[1] and j < m.shape[0]:
        m[j, i] = m[j, i] * 2.0
