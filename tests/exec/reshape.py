"""arr.reshape(...) as Numba has it: the new shape as ints or one tuple
(constants or run-time values), one -1 inferred from the size, on C arrays
only; the result is a C view of the same data, so writes through it reach
the array."""
from numba import cuda
import numpy as np

# RUN: rows_cols --grid 1 --block 1 arr=arange:int64:24 r=4 c=-1 got=zeros:int64:4x6
# EXPECT: got: int64[4x6] [0, 1, 2, ..., 23] sum=276 crc=9f6fb039
#   (computed in Python from: [i for i in range(24)])
# RUN: shapes --grid 1 --block 1 arr=arange:float32:24 out=zeros:float64:8
# EXPECT: out: float64[8] [6, 23, 24, ..., 5] sum=114 crc=fd448b5c
#   (computed in Python from: [6, 1 * 12 + 2 * 4 + 3, 24, 3, 2 * 3 + 1, 23, 8 * 3 - 1, 5])
# RUN: write_through --grid 1 --block 6 a=zeros:int32:2x3x4
# EXPECT: a: int32[2x3x4] [0, 1, 2, ..., 53] sum=636 crc=f4a45f5f
#   (computed in Python from: [(i // 4) * 10 + i % 4 for i in range(24)])
# RUN: np_reshape --grid 1 --block 1 a=arange:int32:12 out=zeros:int32:4x3
# EXPECT: out: int32[4x3] [0, 4, 8, ..., 11] sum=66 crc=3a90ba1c
#   (computed in Python from: [(k % 3) * 4 + k // 3 for k in range(12)])
# Arrays of up to 8 dimensions, as numba-cuda's test_array_reshape passes a
# 6-d array (Numba allows NumPy's 32; kjit stops at 8).
# RUN: from_6d --grid 1 --block 1 arr=arange:int64:1x2x1x2x3x2 got=zeros:int64:4x6
# EXPECT: got: int64[4x6] [0, 1, 2, ..., 23] sum=276 crc=9f6fb039
#   (computed in Python from: [i for i in range(24)])
# RUN: to_8d --grid 1 --block 1 arr=arange:float64:24 got=zeros:float64:2x1x3x1x2x1x2x1
# EXPECT: got: float64[2x1x3x1x2x1x2x1] [23, 22, 21, ..., 0] sum=276 crc=a245d9bc
#   (computed in Python from: [float(23 - i) for i in range(24)])
# RUN: eight --grid 1 --block 1 a=arange:int32:2x1x2x1x2x1x2x1 out=zeros:int64:5
# EXPECT: out: int64[5] [8, 16, 15, 10, 120] sum=169 crc=e6d5e967
#   (computed in Python from: [8, 16, 1 * 8 + 1 * 4 + 1 * 2 + 1, 1 * 8 + 1 * 2, sum(range(16))])


@cuda.jit
def rows_cols(arr, r, c, got):
    y = arr.reshape((r, c))
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            got[i, j] = y[i, j]


@cuda.jit
def shapes(arr, out):
    y = arr.reshape(4, -1)
    z = arr.reshape((2, 3, 4))
    w = z.reshape(8, 1, 3)
    out[0] = y.shape[1]
    out[1] = z[1, 2, 3]
    out[2] = y.size
    out[3] = w.shape[2]
    out[4] = w[2, 0, 1]
    out[5] = y.reshape(24)[23]
    out[6] = arr.reshape(-1)[-1]
    out[7] = w.ndim + arr.reshape((1, 2, 3, 4)).ndim - 2


@cuda.jit
def write_through(a):
    i = cuda.threadIdx.x
    rows = a.reshape(6, 4)
    for j in range(4):
        rows[i, j] = i * 10 + j


@cuda.jit
def np_reshape(a, out):
    m = np.reshape(a, (3, 4))
    for i in range(3):
        for j in range(4):
            out[j, i] = m[i, j]


@cuda.jit
def from_6d(arr, got):
    y = arr.reshape((4, 6))
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            got[i, j] = y[i, j]


@cuda.jit
def to_8d(arr, got):
    y = arr.reshape(got.shape)
    for i in range(24):
        f = got.reshape(24)
        f[i] = y.reshape(-1)[23 - i]


@cuda.jit
def eight(a, out):
    out[0] = a.ndim
    out[1] = a.size
    out[2] = a[1, 0, 1, 0, 1, 0, 1, 0]
    v = a[1, :, :, 0, :, 0, 0, 0]
    out[3] = v[0, 0, 1]
    s = 0
    for x in a.reshape(16):
        s += x
    out[4] = s + v.ndim - 3 + v.shape[2] - 2 + len(a.shape) - 8
