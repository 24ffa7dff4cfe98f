"""Pattern: a per-row histogram: each block walks one row of keys, threads
holding the same bin find each other with cuda.match_any_sync on the int64
bin, the lowest lane (cuda.ffs of the match mask) adds the group's count
(cuda.popc) with one atomic on the 2-D histogram.  Variants: 64 and 16
bins, blocks of 256 and 128, int32 keys."""
# BENCH row=rowhist64_i64 kernel=rowhist_i64 grid=4096 block=256 a=in:int64:4096x4096:51:0:1000000 a=out:uint32:4096x64
# BENCH row=rowhist16_i64_b128 kernel=rowhist_i64 grid=4096 block=128 a=in:int64:4096x4096:52:0:1000000 a=out:uint32:4096x16
# BENCH row=rowhist64_i32 kernel=rowhist_i32 grid=4096 block=256 a=in:int32:4096x4096:53:0:1000000 a=out:uint32:4096x64
from numba import cuda


@cuda.jit("void(int64[:, ::1], uint32[:, ::1])")
def rowhist_i64(keys, hist):
    row = cuda.blockIdx.x
    lane = cuda.threadIdx.x % 32
    nb = hist.shape[1]
    for j in range(cuda.threadIdx.x, keys.shape[1], cuda.blockDim.x):
        b = keys[row, j] % nb
        mask = cuda.match_any_sync(cuda.activemask(), b)
        if lane == cuda.ffs(mask) - 1:
            cuda.atomic.add(hist, (row, b), cuda.popc(mask))


@cuda.jit("void(int32[:, ::1], uint32[:, ::1])")
def rowhist_i32(keys, hist):
    row = cuda.blockIdx.x
    lane = cuda.threadIdx.x % 32
    nb = hist.shape[1]
    for j in range(cuda.threadIdx.x, keys.shape[1], cuda.blockDim.x):
        b = keys[row, j] % nb
        mask = cuda.match_any_sync(cuda.activemask(), b)
        if lane == cuda.ffs(mask) - 1:
            cuda.atomic.add(hist, (row, b), cuda.popc(mask))
