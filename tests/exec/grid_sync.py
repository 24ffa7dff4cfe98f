"""Cooperative groups as numba-cuda has them: g = cuda.cg.this_grid() and
g.sync(), a barrier of every thread of the grid (also chained:
cuda.cg.this_grid().sync()).  Every block of the grid is resident at once,
so a block may read what another block wrote before the barrier."""
from numba import cuda

# RUN: sequential_rows --grid 4 --block 8 M=zeros:int32:32x32
# EXPECT: M: int32[32x32] [0, 0, 0, ..., 31] sum=15872 crc=ca81091a
#   (computed in Python from: [i // 32 for i in range(32 * 32)])
# RUN: grid_total --grid 6 --block 16 x=arange:float64:96 part=zeros:float64:96 out=zeros:float64:96
# EXPECT: out: float64[96] [13680, 13680, 13680, ..., 13680] sum=1313280 crc=ca3d53df
#   (computed in Python from: [sum(range(96)) + 2 * sum(range(96))] * 96)
# RUN: chained --grid 3 --block 4 a=zeros:int32:12 b=zeros:int32:12
# EXPECT: b: int32[12] [34, 31, 28, ..., 1] sum=210 crc=a31e2281
#   (computed in Python from: [(11 - i) * 3 + 1 for i in range(12)])


@cuda.jit
def sequential_rows(M):
    # each row reads the row above, written by the "opposite" thread, which
    # may be in another block: only a grid barrier makes that safe
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    rows = M.shape[0]
    cols = M.shape[1]
    for row in range(1, rows):
        opposite = cols - col - 1
        M[row, col] = M[row - 1, opposite] + 1
        g.sync()


@cuda.jit
def grid_total(x, part, out):
    # two phases separated by grid barriers: every thread sums all the
    # partial values written by every block
    i = cuda.grid(1)
    g = cuda.cg.this_grid()
    part[i] = x[i]
    g.sync()
    s = 0.0
    for j in range(part.size):
        s += part[j]
    g.sync()
    part[i] = 2 * x[i]
    g.sync()
    for j in range(part.size):
        s += part[j]
    out[i] = s


@cuda.jit
def chained(a, b):
    i = cuda.grid(1)
    a[i] = i * 3
    cuda.cg.this_grid().sync()
    b[i] = a[a.size - 1 - i] + 1
