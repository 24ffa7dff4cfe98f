"""Constant arrays of complex64/complex128 built by module-level array
expressions, as numba-cuda's test_const_array_3d freezes
(np.arange(125, dtype=np.complex64).reshape(5, 5, 5) + 1j) / 2j: NumPy 2's
dtypes (a Python complex is weak: complex64 stays complex64, a float32
array becomes complex64, other real arrays complex128), arithmetic in the
dtype's precision (division by Smith's method, as NumPy's loops), and
negation flipping both signs.  The values chosen are exact in float32."""
import numpy as np
from numba import cuda

CONST3D = (np.arange(5 * 5 * 5, dtype=np.complex64).reshape(5, 5, 5) + 1j) / 2j
Z2 = np.arange(6).reshape(2, 3) * (1 - 2j) + 0.25
F = -(np.arange(3, dtype=np.float32) * 1j)

# RUN: cuconst3d --grid 1 --block 5,5,5 A=zeros:c64:5x5x5
# EXPECT: A: complex64[5x5x5] [(0.5+0j), (0.5-0.5j), (0.5-1j), ..., (0.5-62j)] sum=62.5 crc=afe95685
#   (computed in Python from: [complex(0.5, -k / 2) for k in range(125)])
# RUN: others --grid 1 --block 1 z=zeros:c128:2x3 f=zeros:c64:3
# EXPECT: z: complex128[2x3] [(0.25+0j), (1.25-2j), (2.25-4j), (3.25-6j), (4.25-8j), (5.25-10j)] sum=16.5 crc=3a39ead9
#   (computed in Python from: [complex(k + 0.25, -2.0 * k + 0.0) for k in range(6)])
# EXPECT: f: complex64[3] [(-0-0j), (-0-1j), (-0-2j)] sum=0 crc=d0cecd13
#   (computed in Python from: [complex(-0.0, -float(k)) for k in range(3)])


@cuda.jit
def cuconst3d(A):
    C = cuda.const.array_like(CONST3D)
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    k = cuda.threadIdx.z
    A[i, j, k] = C[i, j, k]


@cuda.jit
def others(z, f):
    C = cuda.const.array_like(Z2)
    D = cuda.const.array_like(F)
    for i in range(2):
        for j in range(3):
            z[i, j] = C[i, j]
    for i in range(3):
        f[i] = D[i]
