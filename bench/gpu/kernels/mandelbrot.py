"""Mandelbrot set, 2048 x 2048 pixels, at most 256 iterations, float32, with
the escape-time loop in a device function.  Blocks of 32 x 8 threads; the
pixel size is computed on the host (float32) so no float64 enters."""
from numba import cuda, float32
import numpy as np

FOUR = np.float32(4.0)
TWO = np.float32(2.0)


@cuda.jit("int32(float32, float32, int32)", device=True)
def escape_time(c_re, c_im, max_iter):
    z_re = float32(0.0)
    z_im = float32(0.0)
    for n in range(max_iter):
        z_re2 = z_re * z_re
        z_im2 = z_im * z_im
        if z_re2 + z_im2 > FOUR:
            return n
        z_im = TWO * z_re * z_im + c_im
        z_re = z_re2 - z_im2 + c_re
    return max_iter


@cuda.jit("void(float32, float32, float32, float32, int32[:, ::1], int32)")
def mandelbrot(min_x, min_y, dx, dy, image, max_iter):
    x, y = cuda.grid(2)
    if y < image.shape[0] and x < image.shape[1]:
        c_re = min_x + float32(x) * dx
        c_im = min_y + float32(y) * dy
        image[y, x] = escape_time(c_re, c_im, max_iter)
