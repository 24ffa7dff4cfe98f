"""bench/gpu/kernels/softmax.py (the warp-per-row softmax of the GPU
benchmarks; the code below the docstring is the same, tests/bench_sync.py
checks it) on 16 rows of 40 (two blocks of 8 warps; lanes 0-7 take two
elements of a row).  Inputs whose results are exact: a constant matrix
(every exp is exp(0) = 1, the sum 40, the result float32(1/40)); and
data/npy/softmax_hot.npy, whose row r holds k = 1, 2, 4, ... 32 "hot"
values c = 10r - 50 at the positions (17j + 3r) % 40, j < k, and
c - 1000 + j % 5 elsewhere: exp(0) = 1 at the hot ones, exp(<= -996) = 0
(float32 underflow) at the others, so out is 1/k there and 0 elsewhere,
which is wrong unless the row maximum, the warp sums and the
normalisation are right.  Rows of 300 (lanes take 9 or 10 elements) run
the 4x unrolled exp loops and their remainders (1 or 2 iterations): the
sum is exactly 300, every result float32(1/300)."""
# RUN: softmax --grid 2 --block 256 x=full:float32:16x40:3 out=zeros:float32:16x40
# EXPECT: out: float32[16x40] [0.025, 0.025, 0.025, ..., 0.025] sum=16.00000024 crc=48d308b6
#   (computed in Python from: [1 / 40] * 640)
# RUN: softmax --grid 2 --block 256 x=data/npy/softmax_hot.npy out=zeros:float32:16x40
# EXPECT: out: float32[16x40] [1, 0, 0, ..., 0.125] sum=16 crc=9d084f6d
#   (computed in Python from: [1.0 / [1, 2, 4, 8, 16, 32][r % 6] if j in {(i * 17 + 3 * r) % 40 for i in range([1, 2, 4, 8, 16, 32][r % 6])} else 0.0 for r in range(16) for j in range(40)])
# RUN: softmax --grid 1 --block 256 x=full:float32:4x300:3 out=zeros:float32:4x300
# EXPECT: out: float32[4x300] [0.00333333, 0.00333333, 0.00333333, ..., 0.00333333] sum=4.000000097 crc=cf540b53
#   (computed in Python from: [1 / 300] * 1200)
import math

from numba import cuda, float32

WARP = 32
FULL = 0xffffffff
ONE = float32(1.0)


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def softmax(x, out):
    row = cuda.grid(1) // WARP
    lane = cuda.threadIdx.x % WARP
    nrows, ncols = x.shape
    if row >= nrows:
        return
    m = float32(-math.inf)
    for j in range(lane, ncols, WARP):
        m = max(m, x[row, j])
    off = WARP // 2
    while off > 0:
        m = max(m, cuda.shfl_xor_sync(FULL, m, off))
        off //= 2
    s = float32(0.0)
    for j in range(lane, ncols, WARP):
        s += math.exp(x[row, j] - m)
    off = WARP // 2
    while off > 0:
        s += cuda.shfl_xor_sync(FULL, s, off)
        off //= 2
    inv = ONE / s
    for j in range(lane, ncols, WARP):
        out[row, j] = math.exp(x[row, j] - m) * inv
