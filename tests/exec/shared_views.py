"""Slices of shared and local arrays: Numba's documented idiom of splitting
one dynamic shared array into several (sm[:n], sm[n:2*n]), rows of a 2-d
static shared array, and a strided slice of a local array."""
from numba import cuda, float32, int32

# RUN: split --grid 2 --block 32 --shared 256 x=arange:float32:64 y=full:float32:64:2 out=zeros:float32:64
# EXPECT: out: float32[64] [62, 60, 58, ..., 64] sum=4032 crc=eee7671c
#   (computed in Python from: [2.0 * (32 * (i // 32) + 31 - i % 32) for i in range(64)])

# RUN: rows --grid 1 --block 8 out=zeros:int32:8
# EXPECT: out: int32[8] [17, 118, 219, ..., 324] sum=1364 crc=54278b5a
#   (computed in Python from: [sum([j * j for j in range(8)][1:-1:3]) + (i % 4) * 100 + i for i in range(8)])


@cuda.jit
def split(x, y, out):
    sm = cuda.shared.array(0, float32)
    n = cuda.blockDim.x
    a = sm[:n]
    b = sm[n:2 * n]
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    a[t] = x[i]
    b[t] = y[i]
    cuda.syncthreads()
    out[i] = a[n - 1 - t] * b[t]


@cuda.jit
def rows(out):
    sh = cuda.shared.array((4, 8), int32)
    loc = cuda.local.array(8, int32)
    t = cuda.threadIdx.x
    for j in range(8):
        loc[j] = j * j
    r = sh[t % 4]
    r[t] = (t % 4) * 100
    cuda.syncthreads()
    s = 0
    for v in loc[1:-1:3]:
        s += v
    out[t] = sh[t % 4][t] + s + t
