"""Histogram with global atomics and a grid-stride loop (fewer threads than
elements)."""
from numba import cuda

NBINS = 13

# RUN: histogram --grid 4 --block 64 values=arange:int32:10000 hist=zeros:int32:13
# EXPECT: hist: int32[13] [770, 770, 769, ..., 769] sum=10000 crc=18ded075
#   (computed in Python from: [sum(1 for v in range(10000) if (v * 7) % 13 == b) for b in range(13)])


@cuda.jit
def histogram(values, hist):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < values.size:
        cuda.atomic.add(hist, (values[i] * 7) % NBINS, 1)
        i += stride
