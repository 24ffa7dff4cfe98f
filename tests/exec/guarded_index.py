"""Hillis-Steele steps over a shared array, unrolled at compile time: with the
guard `t >= off` the index t - off is never negative (the compiler drops its
wraparound), without it a negative t - off wraps around the array as Python
and Numba index (s[-1] is the last element).  One block of 8 threads."""
from numba import cuda, float32

TPB = 8
ZERO = float32(0.0)

# RUN: guarded --grid 1 --block 8 x=arange:float32:8 out=zeros:float32:8
# EXPECT: out: float32[8] [0, 1, 3, ..., 28] sum=84 crc=6b04c49e
#   (computed in Python from: [0, 1, 3, 6, 10, 15, 21, 28])
# RUN: wraps --grid 1 --block 8 x=arange:float32:8 out=zeros:float32:8
# EXPECT: out: float32[8] [18, 14, 10, ..., 22] sum=112 crc=9ae48ad4
#   (computed in Python from: (lambda s: [s[t] + s[t - 1] + s[t - 2] + s[t - 3] for t in range(8)])(list(range(8))))


@cuda.jit("void(float32[::1], float32[::1])")
def guarded(x, out):
    s = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    s[t] = x[t]
    cuda.syncthreads()
    off = 1
    while off < TPB:
        v = s[t - off] if t >= off else ZERO
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        off *= 2
    out[t] = s[t]


@cuda.jit("void(float32[::1], float32[::1])")
def wraps(x, out):
    s = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    s[t] = x[t]
    cuda.syncthreads()
    off = 1
    while off < TPB // 2:
        v = s[t - off]
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        off *= 2
    out[t] = s[t]
