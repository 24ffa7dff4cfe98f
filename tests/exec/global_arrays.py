"""Module-level arrays built from constants, frozen into the kernel as
Numba freezes a global NumPy array: np.arange, np.zeros, np.ones, np.full,
np.linspace, .reshape, .astype, .copy, np.ascontiguousarray,
cuda.to_device(np.array(...)), arithmetic with a number, and a global made
from another global."""
import numpy as np
from numba import cuda

A = np.arange(16)
Z = np.zeros(8, np.float32)
O = np.ones((2, 3), dtype=np.int32)
F = np.full(4, 2.5)
L = np.linspace(0, 1, 5)
D = cuda.to_device(np.array([1, 2, 3]))
C = np.ascontiguousarray(np.arange(6).reshape(2, 3))
T = np.array([1.5, 2.5, -3.5]).astype(np.int32)
H = np.arange(10, dtype=np.float64) / 2.0
B3 = np.arange(3, dtype=np.uint8)
R = A * 2 + 1
N = -np.arange(1, 4)
S = np.arange(2.0, 3.0, 0.25).copy()
G = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

# RUN: frozen --grid 1 --block 1 out=zeros:float64:16
# EXPECT: out: float64[16] [15, 0, 1, ..., 4] sum=80 crc=6e153542
#   (computed in Python from: [15, 0, 1, 2.5, 0.25, 3, 3, -3, 1.5, 2, 7, -3, 21, 2.75, 23, 4])
# RUN: every_element --grid 2 --block 8 out=zeros:int64:16
# EXPECT: out: int64[16] [1, 4, 7, ..., 46] sum=376 crc=d93a47f2
#   (computed in Python from: [2 * i + 1 + i for i in range(16)])


@cuda.jit
def frozen(out):
    out[0] = A[15]
    out[1] = Z[7]
    out[2] = O[1, 2]
    out[3] = F[3]
    out[4] = L[1]
    out[5] = D[2]
    out[6] = C[1, 0]
    out[7] = T[2]
    out[8] = H[3]
    out[9] = B3[2]
    out[10] = R[3]
    out[11] = N[2]
    out[12] = A.size + L.size
    out[13] = S[3]
    out[14] = G[1, 2, 3]
    out[15] = G.shape[2]


@cuda.jit
def every_element(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = R[i] + A[i]
