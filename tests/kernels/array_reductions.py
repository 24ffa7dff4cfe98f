"""Whole-array reductions (np.sum, np.nanmean, np.var, np.count_nonzero,
a.all(), ...) over 1-d, strided 2-d and constant arrays: loops in the PTX."""
import numpy as np
from numba import cuda

W = np.float32([[0.5, np.nan], [2.0, -1.0]])


@cuda.jit("void(float32[:, :], float64[::1])")
def row_stats(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        r = x[i]
        out[i] = np.sum(r) + r.mean() + np.var(r) + np.std(r) + np.nanmean(W) + np.nanstd(W)


@cuda.jit("void(int32[::1], boolean[::1], int64[::1])")
def counts(a, flags, out):
    out[0] = np.count_nonzero(a) + np.sum(a) + a.prod() + np.nansum(a)
    flags[0] = a.all() and np.any(a[::-1])
