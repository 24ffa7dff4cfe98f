"""@vectorize over 2-d to 4-d arrays: NumPy broadcasting of missing and
size-1 dimensions, scalars, and a non-contiguous input (a Fortran-order
.npy file is a strided view) go through the general indexed kernel."""
import math

import numba

# RUN: fma3 arange:float64:3x4 arange:float64:4 1.0
# EXPECT: out: float64[3x4] [1, 2, 5, ..., 34] sum=126 crc=150b8e9d
#   (computed in Python from: [(4 * i + j) * j + 1.0 for i in range(3) for j in range(4)])
# RUN: fma3 arange:float64:3x1 arange:float64:1x4 zeros:float64:3x4
# EXPECT: out: float64[3x4] [0, 0, 0, ..., 6] sum=18 crc=ddbe75ff
#   (computed in Python from: [float(i * j) for i in range(3) for j in range(4)])
# RUN: fma3 data/npy/fortran_f8.npy 2.0 0.5
# EXPECT: out: float64[2x3x4] [0.5, 2.5, 4.5, ..., 46.5] sum=564 crc=63ff7e1e
#   (computed in Python from: [2.0 * v + 0.5 for v in range(24)])
# RUN: fma3 arange:float64:2x1x3x1 arange:float64:4 0.0
# EXPECT: out: float64[2x1x3x4] [0, 0, 0, ..., 15] sum=90 crc=45c1f0b7
#   (computed in Python from: [float((3 * i + j) * k) for i in range(2) for j in range(3) for k in range(4)])
# RUN: hyp arange:float32:2x8 arange:float32:2x8
# EXPECT: out: float32[2x8] [0, 1.41421, 2.82843, ..., 21.2132] sum=169.7056271 crc=a528c646
#   (computed in Python from: [math.sqrt(2.0 * i * i) for i in range(16)])


@numba.vectorize(['float64(float64, float64, float64)'])
def fma3(x, y, z):
    return x * y + z


@numba.vectorize(['float32(float32, float32)'], target='parallel')
def hyp(x, y):
    return math.sqrt(x * x + y * y)
