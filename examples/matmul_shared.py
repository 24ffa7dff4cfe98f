"""Matrix multiplication with shared memory: each block of 16x16 threads
computes a 16x16 tile of C = A @ B, staging tiles of A and B through
cuda.shared.array, with cuda.syncthreads() between loading and using them.

    python3 examples/matmul_shared.py           # with Numba, on a GPU
    kjit run examples/matmul_shared.py:matmul_shared --grid 2,2 --block 16,16 A=arange:float32:20x30 B=arange:float32:30x25 C=zeros:float32:20x25

The shapes need not be multiples of the tile: threads outside A or B load
zeros.  (With these inputs every sum is an integer below 2**24, exact in
float32 in any order.)
"""
from numba import cuda, float32
import numpy as np

TPB = 16  # threads per block along each axis: the tile size


@cuda.jit
def matmul_shared(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    col, row = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = float32(0.0)
    for t in range((A.shape[1] + TPB - 1) // TPB):
        k = t * TPB
        sA[ty, tx] = 0.0
        sB[ty, tx] = 0.0
        if row < A.shape[0] and k + tx < A.shape[1]:
            sA[ty, tx] = A[row, k + tx]
        if col < B.shape[1] and k + ty < B.shape[0]:
            sB[ty, tx] = B[k + ty, col]
        cuda.syncthreads()
        for j in range(TPB):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if row < C.shape[0] and col < C.shape[1]:
        C[row, col] = acc


if __name__ == "__main__":
    A = np.arange(20 * 30, dtype=np.float32).reshape(20, 30)
    B = np.arange(30 * 25, dtype=np.float32).reshape(30, 25)
    C = np.zeros((20, 25), dtype=np.float32)
    matmul_shared[(2, 2), (TPB, TPB)](A, B, C)
    assert np.array_equal(C, A @ B)
    print(C[:2, :4])

# The compiles that ptxas assembles for sm_80 and sm_90 (tests/ptxas.sh):
# ARGS: ptx %s:matmul_shared --sig "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"

# The tests' runs (tests/exec.sh, on the CPU target and on the GPU):
# RUN: matmul_shared --grid 2,2 --block 16,16 A=arange:float32:20x30 B=arange:float32:30x25 C=zeros:float32:20x25
# EXPECT: C: float32[20x25] [213875, 214310, 214745, ..., 6.83346e+06] sum=1710535000 crc=95d58515
#   (computed in Python from: [float(sum((30 * (k // 25) + m) * (25 * m + k % 25) for m in range(30))) for k in range(500)])
# RUN: matmul_shared --grid 3,1 --block 16,16 A=full:float32:16x40:0.5 B=arange:float32:40x33 C=zeros:float32:16x33
# EXPECT: C: float32[16x33] [12870, 12890, 12910, ..., 13510] sum=6964320 crc=e3b535c1
#   (computed in Python from: [0.5 * sum(33 * m + k % 33 for m in range(40)) for k in range(528)])
