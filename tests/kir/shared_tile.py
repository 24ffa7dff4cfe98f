# ARGS: ptx %s:k --emit kir
# Shared and local arrays with shapes from module constants, syncthreads,
# and a += on an array element (array and index evaluated once).
from numba import cuda, float32
import numpy as np

TPB = 16
SHAPE = (TPB, TPB)


@cuda.jit("void(float32[:, :], float32[:, :])")
def k(a, out):
    tile = cuda.shared.array(SHAPE, dtype=float32)
    tmp = cuda.local.array(4, np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x, y = cuda.grid(2)
    tile[ty, tx] = a[y, x]
    cuda.syncthreads()
    tmp[0] = tile[tx, ty]
    out[y, x] += tmp[0]
