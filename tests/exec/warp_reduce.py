"""Warp-shuffle reduction: a shfl_down_sync tree sums the 32 lanes of each
warp (int32, and float64 as two 32-bit shuffles), then lane 0 adds the
warp's sum to the total with one atomic per warp."""
from numba import cuda, int32

# RUN: warp_sum --grid 4 --block 256 x=arange:int32:1024 y=arange:float64:1024 sums=zeros:int32:32 fsums=zeros:float64:32 total=zeros:int32:1
# EXPECT: sums: int32[32] [496, 1520, 2544, ..., 32240] sum=523776 crc=c3186b0c
#   (computed in Python from: [1024 * w + 496 for w in range(32)])
# EXPECT: fsums: float64[32] [496, 1520, 2544, ..., 32240] sum=523776 crc=6cf484b1
#   (computed in Python from: [1024.0 * w + 496 for w in range(32)])
# EXPECT: total: int32[1] [523776] sum=523776 crc=d15f1701
#   (computed in Python from: [1023 * 1024 // 2])


@cuda.jit
def warp_sum(x, y, sums, fsums, total):
    i = cuda.grid(1)
    s = x[i]
    f = y[i]
    off = 16
    while off > 0:
        s = int32(s + cuda.shfl_down_sync(0xffffffff, s, off))
        f += cuda.shfl_down_sync(0xffffffff, f, off)
        off //= 2
    if cuda.laneid == 0:
        w = i // 32
        sums[w] = s
        fsums[w] = f
        cuda.atomic.add(total, 0, s)
