"""b[i] += a[i] in place, run three times with --repeat (updates
accumulate); a lazy kernel specialized to int32 arrays."""
from numba import cuda

# RUN: accumulate --grid 2 --block 64 a=arange:int32:100 b=full:int32:100:5 --repeat 3
# EXPECT: b: int32[100] [5, 8, 11, ..., 302] sum=15350 crc=5167eaf1
#   (computed in Python from: [5 + 3 * i for i in range(100)])


@cuda.jit
def accumulate(a, b):
    i = cuda.grid(1)
    if i < b.size:
        b[i] += a[i]
