# ARGS: ptx %s:mandel --sig "void(float32, float32, int32[::1], int32)"
# ARGS: ptx %s:stencil5 --sig "void(float32[:, ::1], float32[:, ::1])" --fits32
# ARGS: ptx %s:strided --sig "void(float32[:, :], float32[:, :])" --fits32
"""32-bit variants (docs/internals.md): a range() counter narrowed to int32,
and 2-D offsets (C and strided layouts) in 32 bits under the launch fact."""
from numba import cuda, float32
import numpy as np

QUARTER = np.float32(0.25)


@cuda.jit(device=True)
def escape(c_re, c_im, max_iter):
    z_re = float32(0.0)
    z_im = float32(0.0)
    for n in range(max_iter):
        if z_re * z_re + z_im * z_im > float32(4.0):
            return n
        z_re, z_im = z_re * z_re - z_im * z_im + c_re, float32(2.0) * z_re * z_im + c_im
    return max_iter


@cuda.jit
def mandel(c_re, c_im, out, max_iter):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = escape(c_re + float32(i), c_im, max_iter)


@cuda.jit
def stencil5(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = QUARTER * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])


@cuda.jit
def strided(a, out):
    j, i = cuda.grid(2)
    v = a[::-1, ::2]
    if i < v.shape[0] and j < v.shape[1]:
        out[i, j] = v[i, j]
