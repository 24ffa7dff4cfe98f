"""Module-level constants (ints, floats, expressions, tuples) and cuda.gridsize."""
from numba import cuda, float32
import numpy as np

N = 1 << 10
SCALE = 2.5
HALF = N // 2
TILE = (8, 4)
NEG = -3
FLAG = True
MASK = 0xFF


@cuda.jit("void(float32[:], float32[:, :])")
def constants(a, b):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, min(a.size, N), stride):
        a[i] = a[i] * SCALE + HALF + NEG
        if FLAG:
            a[i] += i & MASK
    tile = cuda.shared.array(TILE, dtype=float32)
    tx = cuda.threadIdx.x % TILE[0]
    ty = cuda.threadIdx.y % TILE[1]
    tile[tx, ty] = tx * ty
    cuda.syncthreads()
    x, y = cuda.grid(2)
    gx, gy = cuda.gridsize(2)
    if x < b.shape[0] and y < b.shape[1]:
        b[x, y] = tile[tx, ty] + gx + gy


if __name__ == "__main__":
    pass
