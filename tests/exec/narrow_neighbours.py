"""Constant offsets of a last index under 32-bit offsets (docs/internals.md,
"Array offsets"): a[i, j - 1], b[i, j - 4] and a[i, j + 1] address from one
i * shape[1] + j plus a constant, and negative indices still wrap to the end
of the row as in Python (j - 1 at j = 0 is the last column).  int8 arrays
(itemsize 1) keep the constant inside the 32-bit sum."""
from numba import cuda

# RUN: neighbours --grid 1 --block 8,4 a=arange:int32:3x5 b=arange:int16:3x5 c=arange:int8:3x5 out=zeros:int64:3x5
# EXPECT: out: int64[3x5] [1004001003, 2000002004, 3001003000, ..., 13010012] sum=9.01051051e+10 crc=ae32c5ae
#   (computed in Python from: [(5*i + (j - 1) % 5) * 1000000 + (5*i + (j - 4) % 5) * 1000 + (5*i + (j - 2) % 5) + ((5*i + j + 1) * 10**9 if j + 1 < 5 else 0) for i in range(3) for j in range(5)])


@cuda.jit
def neighbours(a, b, c, out):
    j, i = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        t = a[i, j - 1] * 1000000 + b[i, j - 4] * 1000 + c[i, j - 2]
        if j + 1 < a.shape[1]:
            t += a[i, j + 1] * 1000000000
        out[i, j] = t
