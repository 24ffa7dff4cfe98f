"""A launch of 2^31 + 1024 threads in x (2097153 blocks of 1024) takes the
64-bit variant, not the grid32 one (docs/internals.md, "32-bit arithmetic
where provably the same"): cuda.grid(1) reaches 2^31 + 1023, and the last
four threads write their own indices.  The second run, a small grid, takes
the grid32 variant of the same kernel.  (On the CPU target the trivial body
runs the 2^31 threads in under a second.)"""
# RUN: tail --grid 2097153 --block 1024 out=zeros:int64:4 n=2147484672
# EXPECT: out: int64[4] [2147484668, 2147484669, 2147484670, 2147484671] sum=8589938678 crc=ed70e6d8
#   (computed in Python from: [2**31 + 1020 + k for k in range(4)])
# RUN: tail --grid 4 --block 32 out=zeros:int64:4 n=100
# EXPECT: out: int64[4] [96, 97, 98, 99] sum=390 crc=ef775d8f
#   (computed in Python from: [96 + k for k in range(4)])
from numba import cuda


@cuda.jit
def tail(out, n):
    i = cuda.grid(1)
    if i >= n - 4 and i < n:
        out[i - (n - 4)] = i
