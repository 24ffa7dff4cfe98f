"""Barriers the CPU target's split at syncthreads leaves to fibers, or runs
as fibers would: a barrier that only some threads reach (CUDA allows it
only where the condition is the same across the block; here the others
finish and exit, which releases the waiting threads on the GPU and on the
CPU alike), and syncthreads_count, whose result needs every thread's
predicate (run on one fiber per thread)."""
from numba import cuda, float32, int32

# RUN: divergent --grid 1 --block 32 out=zeros:int32:32
# EXPECT: out: int32[32] [256, 289, 324, ..., -31] sum=8800 crc=575e67b4
#   (computed in Python from: [(t + 16) ** 2 if t < 16 else -t for t in range(32)])

# RUN: counted --grid 1 --block 64 x=arange:float32:64 out=zeros:float32:64
# EXPECT: out: float32[64] [3339, 3286, 3233, ..., 0] sum=106848 crc=46abb879
#   (computed in Python from: [float((63 - t) * 53) for t in range(64)])


@cuda.jit
def divergent(out):
    sh = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    sh[t] = t * t
    if t < 16:
        cuda.syncthreads()
        out[t] = sh[t + 16]
    else:
        out[t] = -t


@cuda.jit
def counted(x, out):
    sh = cuda.shared.array(64, float32)
    t = cuda.threadIdx.x
    sh[t] = x[t]
    n = cuda.syncthreads_count(x[t] > 10)
    v = sh[63 - t]
    cuda.syncthreads()
    out[t] = v * n
