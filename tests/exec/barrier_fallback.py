"""Barriers the CPU target's split at syncthreads leaves to fibers, or runs
as fibers would: a barrier that only some threads reach (CUDA allows it
only where the condition is the same across the block; here the others
finish and exit, which releases the waiting threads on the GPU and on the
CPU alike), syncwarp before syncthreads (a warp barrier: the kernel runs
on one fiber per thread), and more barriers (18) than the split takes (16)."""
from numba import cuda, float32, int32

# RUN: divergent --grid 1 --block 32 out=zeros:int32:32
# EXPECT: out: int32[32] [256, 289, 324, ..., -31] sum=8800 crc=575e67b4
#   (computed in Python from: [(t + 16) ** 2 if t < 16 else -t for t in range(32)])

# RUN: eighteen --grid 1 --block 32 out=zeros:int32:32
# EXPECT: out: int32[32] [18, 19, 20, ..., 17] sum=784 crc=2d93d2d2
#   (computed in Python from: [(t + 9) % 32 + 9 for t in range(32)])

# RUN: warp_then_block --grid 1 --block 64 x=arange:float32:64 out=zeros:float32:64
# EXPECT: out: float32[64] [64, 62, 64, ..., 62] sum=4032 crc=7a994e38
#   (computed in Python from: [float((t ^ 1) + 63 - t) for t in range(64)])


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
def warp_then_block(x, out):
    sh = cuda.shared.array(64, float32)
    t = cuda.threadIdx.x
    sh[t] = x[t]
    cuda.syncwarp()
    v = sh[t ^ 1]
    cuda.syncthreads()
    out[t] = v + sh[63 - t]


@cuda.jit
def eighteen(out):
    sh = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    v = t
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    sh[t] = v
    cuda.syncthreads()
    v = sh[(t + 1) % 32] + 1
    cuda.syncthreads()
    out[t] = v
