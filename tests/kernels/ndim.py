"""3-D and 4-D arrays, strided (any layout) and C-contiguous, .ndim/.size."""
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:, :, :], float32[:, :, ::1])")
def copy_3d(src, dst):
    x, y, z = cuda.grid(3)
    if x < src.shape[0] and y < src.shape[1] and z < src.shape[2]:
        dst[x, y, z] = src[x, y, z] + src.ndim


@cuda.jit("void(float64[:, :, :, :], float64[:])")
def sum_4d(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    s = 0.0
    for j in range(a.shape[1]):
        for k in range(a.shape[2]):
            for l in range(a.shape[3]):
                s += a[i, j, k, l]
    out[i] = s / a.size


@cuda.jit("void(int32[::1], int32[:], int32[:, ::1], int32[:, :])")
def layouts(c1, a1, c2, a2):
    i, j = cuda.grid(2)
    if i < c2.shape[0] and j < c2.shape[1]:
        a2[i, j] = c2[i, j] + c1[i % c1.size] + a1[j % len(a1)]


@cuda.jit("void(float32[:], int64)")
def negative_index(a, k):
    if cuda.grid(1) == 0:
        a[-1] = a[-2] + a[k]


if __name__ == "__main__":
    pass
