"""Constant record arrays (cuda.const.array_like of a module-level
np.array with a structured dtype), as Numba freezes them: the records'
bytes at NumPy's offsets (packed, align=True, np.dtype(dtype=...)), the
Python builtins float/int/bool as field dtypes (float64, int64, bool), an
empty record array (len 0), and 2-d record arrays (lists are dimensions,
tuples records)."""
import numpy as np
from numba import cuda

CONST_RECORD_EMPTY = np.array([], dtype=[("x", float), ("y", int)])
CONST_RECORD = np.array([(1.0, 2), (3.0, 4)], dtype=[("x", float), ("y", int)])
CONST_RECORD_ALIGN = np.array(
    [(1, 2, 3, 0xDEADBEEF, 8), (4, 5, 6, 0xBEEFDEAD, 10)],
    dtype=np.dtype(
        dtype=[("a", np.uint8), ("b", np.uint8), ("x", np.uint8), ("y", np.uint32), ("z", np.uint8)],
        align=True,
    ),
)
cell = np.dtype([("w", np.float32), ("on", bool), ("k", np.int16)], align=True)
GRID = np.array([[(0.5, True, -1), (1.5, False, 7)], [(2.5, True, 300), (3.5, True, -300)]], dtype=cell)

# RUN: empty --grid 1 --block 1 A=full:i8:1:-1
# EXPECT: A: int64[1] [0] sum=0 crc=6522df69
#   (computed in Python from: [0])


@cuda.jit("void(int64[:])")
def empty(A):
    C = cuda.const.array_like(CONST_RECORD_EMPTY)
    i = cuda.grid(1)
    A[i] = len(C)

# RUN: fields --grid 1 --block 2 A=zeros:f8:2 B=zeros:i8:2
# EXPECT: A: float64[2] [1, 3] sum=4 crc=b37a0357
#   (computed in Python from: [1.0, 3.0])
# EXPECT: B: int64[2] [2, 4] sum=6 crc=ef5160cc
#   (computed in Python from: [2, 4])


@cuda.jit
def fields(A, B):
    C = cuda.const.array_like(CONST_RECORD)
    i = cuda.grid(1)
    A[i] = C[i]["x"]
    B[i] = C[i].y

# RUN: aligned --grid 1 --block 2 A=zeros:u1:2 B=zeros:u1:2 C=zeros:u1:2 D=zeros:u4:2 E=zeros:u1:2
# EXPECT: A: uint8[2] [1, 4] sum=5 crc=5fafe7a7
#   (computed in Python from: [1, 4])
# EXPECT: B: uint8[2] [2, 5] sum=7 crc=038584f2
#   (computed in Python from: [2, 5])
# EXPECT: C: uint8[2] [3, 6] sum=9 crc=8397e409
#   (computed in Python from: [3, 6])
# EXPECT: D: uint32[2] [3735928559, 3203391149] sum=6939319708 crc=11f6b71b
#   (computed in Python from: [0xDEADBEEF, 0xBEEFDEAD])
# EXPECT: E: uint8[2] [8, 10] sum=18 crc=69d571e9
#   (computed in Python from: [8, 10])


@cuda.jit
def aligned(A, B, C, D, E):
    Z = cuda.const.array_like(CONST_RECORD_ALIGN)
    i = cuda.grid(1)
    A[i] = Z[i]["a"]
    B[i] = Z[i]["b"]
    C[i] = Z[i]["x"]
    D[i] = Z[i]["y"]
    E[i] = Z[i]["z"]

# RUN: grid2d --grid 1 --block 4 out=zeros:f8:4
# EXPECT: out: float64[4] [-0.5, 0, 302.5, -296.5] sum=5.5 crc=7f1bfa9a
#   (computed in Python from: [0.5 - 1, 0.0, 2.5 + 300, 3.5 - 300])


@cuda.jit
def grid2d(out):
    g = cuda.const.array_like(GRID)
    t = cuda.grid(1)
    r = g[t // 2, t % 2]
    if r.on:
        out[t] = r.w + r.k
