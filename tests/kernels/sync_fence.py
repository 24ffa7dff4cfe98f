"""Barriers with predicates, warp sync and memory fences."""
from numba import cuda
import numpy as np


@cuda.jit("void(int32[:], int32[:])")
def barriers(vals, out):
    i = cuda.grid(1)
    v = 0
    if i < vals.size:
        v = vals[i]
    n_pos = cuda.syncthreads_count(v > 0)
    all_pos = cuda.syncthreads_and(v > 0)
    any_neg = cuda.syncthreads_or(v < 0)
    cuda.syncwarp()
    cuda.syncwarp(0xffffffff)
    if i < out.size:
        out[i] = n_pos * 4 + all_pos * 2 + any_neg


@cuda.jit("void(int32[:], int32[:])")
def fences(data, flag):
    i = cuda.grid(1)
    if i < data.size:
        data[i] = i
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()
    if i == 0:
        flag[0] = 1
    cuda.syncthreads()


if __name__ == "__main__":
    vals = np.arange(-16, 16, dtype=np.int32)
    out = np.zeros(32, dtype=np.int32)
    barriers[1, 32](vals, out)
