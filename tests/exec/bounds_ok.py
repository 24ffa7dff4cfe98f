"""Bounds checks that pass: negative indices wrap (Numba) and stay in range,
and the same kernel runs without --debug (no checks; indices in bounds)."""
from numba import cuda

# RUN: rev --grid 1 --block 4 --debug arange:f32:4 zeros:f32:4
# EXPECT: out: float32[4] [3, 2, 1, 0] sum=6 crc=f3dc1587
#   (computed in Python from: [3, 2, 1, 0])
# RUN: rev --grid 1 --block 4 arange:f32:4 zeros:f32:4
# EXPECT: out: float32[4] [3, 2, 1, 0] sum=6 crc=f3dc1587
#   (computed in Python from: [3, 2, 1, 0])
# RUN: inc --grid 1 --block 16 --debug zeros:f32:10 10
# EXPECT: a: float32[10] [1, 1, 1, ..., 1] sum=10 crc=4e8389da
#   (computed in Python from: [1] * 10)


@cuda.jit
def rev(a, out):
    i = cuda.grid(1)
    out[i] = a[-1 - i]


@cuda.jit
def inc(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i] = a[i] + 1
