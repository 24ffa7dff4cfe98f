"""Local arrays, math functions and a float32 loop: out[i] = sqrt(i) + a
running sum kept in a local array."""
from numba import cuda, float64
import math

# RUN: local_sum --grid 1 --block 32 out=zeros:float64:32
# EXPECT: out: float64[32] [0, 2, 4.41421, ..., 501.568] sum=5573.65061 crc=229d8daf
#   (computed in Python from: [(lambda a: math.sqrt(i) + a[0] + a[1] + a[2] + a[3])([float(sum(k for k in range(i + 1) if k % 4 == r)) for r in range(4)]) for i in range(32)])


@cuda.jit
def local_sum(out):
    i = cuda.grid(1)
    acc = cuda.local.array(4, float64)
    for k in range(4):
        acc[k] = 0.0
    for k in range(i + 1):
        acc[k % 4] += k
    out[i] = math.sqrt(i) + acc[0] + acc[1] + acc[2] + acc[3]
