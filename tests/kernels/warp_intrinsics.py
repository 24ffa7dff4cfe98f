"""Warp intrinsics: shfl (all four modes, 32- and 64-bit values), votes,
ballot, match_any/match_all (sm_70+), activemask, lanemask_lt."""
from numba import cuda, int64


@cuda.jit("void(int32[:], uint32[:], float32[:], float64[:], int64[:])")
def warp_ops(a, u, x, y, z):
    i = cuda.grid(1)
    l = cuda.laneid
    a[i] = cuda.shfl_sync(0xffffffff, a[i], 0) + cuda.shfl_up_sync(0xffffffff, a[i], 1)
    u[i] = cuda.shfl_down_sync(0xffffffff, u[i], 2) ^ cuda.shfl_xor_sync(0xffffffff, u[i], 4)
    x[i] = cuda.shfl_xor_sync(0xffffffff, x[i], 1)
    y[i] = cuda.shfl_down_sync(0xffffffff, y[i], 16)
    z[i] = cuda.shfl_sync(0xffffffff, z[i], l ^ 3)
    m = cuda.activemask()
    b = cuda.ballot_sync(m, a[i] > 0)
    if cuda.all_sync(m, b != 0) or cuda.any_sync(m, l == 0) or cuda.eq_sync(m, a[i]):
        u[i] += b + cuda.lanemask_lt()
    u[i] += cuda.match_any_sync(m, z[i]) + cuda.match_any_sync(m, x[i])
    mask, ok = cuda.match_all_sync(m, a[i])
    if ok:
        a[i] = mask
    cuda.syncwarp(m)
