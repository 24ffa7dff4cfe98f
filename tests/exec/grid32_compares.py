"""Comparisons of cuda.grid() indices, which a launch whose gridDim * blockDim
stays below 2^31 (the grid32 fact, docs/internals.md) lets codegen emit in
32 bits where both sides provably fit: against a.size and a.shape (the
fits32 fact), with results below zero on both sides (i - 5 < shape - 7),
equality with the hand-written blockIdx.x * blockDim.x + threadIdx.x,
cuda.gridsize; and comparisons that stay 64-bit: against an int64 argument
above 2^31, and against 2 * a.size (which may not fit int32).  96 threads,
70 elements: bit k of out[i] says whether test k held."""
# RUN: grid_cmp --grid 3 --block 32 a=zeros:float32:70 out=zeros:int64:96 big=3000000000
# EXPECT: out: int64[96] [31, 31, 31, ..., 36] sum=3006 crc=7cd0b268
#   (computed in Python from: [(i < 70) + 2 * (i - 5 < 70 - 7) + 4 + 8 * (96 - i > 90) + 16 * (i < 3000000000 - 2999999950) + 32 * (i * 3 >= 70 * 2) for i in range(96)])
from numba import cuda


@cuda.jit
def grid_cmp(a, out, big):
    i = cuda.grid(1)
    h = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    g = cuda.gridsize(1)
    r = 0
    if i < a.size:
        r += 1
    if i - 5 < a.shape[0] - 7:
        r += 2
    if h == i:
        r += 4
    if g - i > 90:
        r += 8
    if i < big - 2999999950:
        r += 16
    if i * 3 >= a.size * 2:
        r += 32
    out[i] = r
