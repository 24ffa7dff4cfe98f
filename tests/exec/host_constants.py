"""Module constants computed by host code, folded as Python computes them at
import (Numba freezes globals when it compiles): math.* and np.* functions of
constants, arithmetic of them, NumPy scalar casts, float('inf'), np.inf in a
tuple, np.ascontiguousarray / np.asarray of a list, np.linspace / arange /
zeros / ones / full / eye, dict literals indexed by constant keys (nested too),
a 0-d array read as X[()], and integer literals >= 2**63, which are uint64."""
import math

import numpy as np
from numba import cuda

A = math.sqrt(2.0)
B = np.sqrt(2.0)
C = A * 2 + 1
D = np.float32(1.5)
E = np.uint64(7)
F = float('inf')
G = (np.inf, -np.inf, 1.0)
H = np.ascontiguousarray([1.0, 2.0, 3.0], dtype=np.float32)
I = np.asarray([1, 2, 3], dtype=np.int32)
J = np.linspace(0.0, 1.0, 5)
K = np.arange(4)
L = np.zeros(3)
M = np.ones(3, dtype=np.float32)
N = np.full(3, 2.5)
O = np.eye(3, k=1)
P = {'a': 1, 'b': 2.5, 'nested': {3: 7.0}}
Q = P['b']
R = np.array(3.0)
S = 9223372036854775813
T = np.exp(1.0)
U = np.pi / 4
V = math.floor(2.7) + math.atan2(1.0, 1.0)
W = 0xcbf29ce484222325


@cuda.jit
def k(o, u):
    o[0] = A; o[1] = B; o[2] = C; o[3] = D; o[4] = E; o[5] = F > 1e308; o[6] = G[1] < -1e308
    o[7] = H[2]; o[8] = I[1]; o[9] = J[3]; o[10] = K[3]; o[11] = L[1]; o[12] = M[0]
    o[13] = N[2]; o[14] = O[0, 1] + O[1, 1]; o[15] = P['a']; o[16] = Q; o[17] = R[()]
    o[18] = S % np.uint64(1000); o[19] = T; o[20] = U; o[21] = V; o[22] = P['nested'][3]
    u[0] = W
    u[1] = S
    u[2] = 18446744073709551615 - u[0]


# RUN: k --grid 1 --block 1 o=zeros:f64:23 u=zeros:u64:3
# EXPECT: o: float64[23] [1.41421, 1.41421, 3.82843, ..., 7] sum=863.1959324 crc=ba8a9e28
#   (computed in Python from: [math.sqrt(2), math.sqrt(2), math.sqrt(2) * 2 + 1, 1.5, 7, 1, 1, 3, 2, 0.75, 3, 0, 1, 2.5, 1, 1, 2.5, 3, 813, math.exp(1), math.pi / 4, 2 + math.atan2(1, 1), 7])
# EXPECT: u: uint64[3] [14695981039346656037, 9223372036854775813, 3750763034362895578] sum=2.767011611e+19 crc=8a271c49
#   (computed in Python from: [0xcbf29ce484222325, 9223372036854775813, 18446744073709551615 - 0xcbf29ce484222325])
