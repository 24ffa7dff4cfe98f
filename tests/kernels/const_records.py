"""Constant record arrays in constant memory: an empty one, packed and
aligned layouts, a 2-d array of records."""
import numpy as np
from numba import cuda

CONST_RECORD_EMPTY = np.array([], dtype=[("x", float), ("y", int)])
CONST_RECORD = np.array([(1.0, 2), (3.0, 4)], dtype=[("x", float), ("y", int)])
CONST_RECORD_ALIGN = np.array(
    [(1, 2, 3, 0xDEADBEEF, 8), (4, 5, 6, 0xBEEFDEAD, 10)],
    dtype=np.dtype(dtype=[("a", np.uint8), ("b", np.uint8), ("x", np.uint8), ("y", np.uint32),
                          ("z", np.uint8)], align=True))
cell = np.dtype([("w", np.float32), ("on", bool), ("k", np.int16)], align=True)
GRID = np.array([[(0.5, True, -1), (1.5, False, 7)], [(2.5, True, 300), (3.5, True, -300)]], dtype=cell)


@cuda.jit("void(int64[:])")
def empty(A):
    C = cuda.const.array_like(CONST_RECORD_EMPTY)
    A[cuda.grid(1)] = len(C)


@cuda.jit("void(float64[:], int64[:])")
def fields(A, B):
    C = cuda.const.array_like(CONST_RECORD)
    i = cuda.grid(1)
    A[i] = C[i]["x"]
    B[i] = C[i].y


@cuda.jit("void(uint8[:], uint32[:])")
def aligned(A, D):
    Z = cuda.const.array_like(CONST_RECORD_ALIGN)
    i = cuda.grid(1)
    A[i] = Z[i]["a"] + Z[i]["z"]
    D[i] = Z[i]["y"]


@cuda.jit("void(float64[:])")
def grid2d(out):
    g = cuda.const.array_like(GRID)
    t = cuda.grid(1)
    r = g[t // 2, t % 2]
    if r.on:
        out[t] = r.w + r.k
