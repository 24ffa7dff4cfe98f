"""Tiled matrix multiplication in shared memory (Numba's documentation example)."""
from numba import cuda, float32
import numpy as np

# Threads per block along each dimension: a compile-time constant.
TPB = 16


@cuda.jit("void(float32[:, :], float32[:, :], float32[:, :])")
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x

    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]

        cuda.syncthreads()

        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]

        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


if __name__ == "__main__":
    n = 64
    a = np.random.rand(n, n).astype(np.float32)
    b = np.random.rand(n, n).astype(np.float32)
    c = np.zeros((n, n), dtype=np.float32)
    grid = (n + TPB - 1) // TPB
    fast_matmul[(grid, grid), (TPB, TPB)](a, b, c)
    assert np.allclose(c, a @ b, rtol=1e-4)
