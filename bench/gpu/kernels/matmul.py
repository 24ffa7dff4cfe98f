"""Tiled shared-memory matrix multiplication, C = A @ B (2048 x 2048 float32).

The classic example of Numba's documentation: 16 x 16 tiles of A and B in
shared memory, two syncthreads per tile.  Launched with 16 x 16 threads per
block and a (N / 16, N / 16) grid; x is the column, y the row.
"""
from numba import cuda, float32

TPB = 16


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)

    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x    # blocks per grid

    tmp = float32(0.)
    for i in range(bpg):
        # Preload data into shared memory (zero outside the matrices)
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]

        # Wait until all threads finish preloading
        cuda.syncthreads()

        # Computes partial product on the shared memory
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]

        # Wait until all threads finish computing
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp
