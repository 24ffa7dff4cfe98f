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



@cuda.jit("void(complex64[:, :, :])")
def cuconst3d(A):
    C = cuda.const.array_like(CONST3D)
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    k = cuda.threadIdx.z
    A[i, j, k] = C[i, j, k]


@cuda.jit("void(complex128[:, ::1], complex64[::1])")
def others(z, f):
    C = cuda.const.array_like(Z2)
    D = cuda.const.array_like(F)
    for i in range(2):
        for j in range(3):
            z[i, j] = C[i, j]
    for i in range(3):
        f[i] = D[i]
