"""Tiled matrix multiply in shared memory (Numba's fast_matmul), on int32
so the expected result is exact."""
from numba import cuda, int32

TPB = 8

# RUN: fast_matmul --grid 4,4 --block 8,8 A=arange:int32:32x32 B=arange:int32:32x32 C=zeros:int32:32x32
# EXPECT: C: int32[32x32] [333312, 333808, 334304, ..., 17077776] sum=8662556672 crc=f958a828
#   (computed in Python from: [sum((32 * (k // 32) + m) * (32 * m + k % 32) for m in range(32)) for k in range(1024)])


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=int32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=int32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = 0
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
