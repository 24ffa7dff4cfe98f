"""Mandelbrot set: a device function with a loop called from a 2-D kernel."""
from numba import cuda, uint8
import numpy as np


@cuda.jit(device=True)
def mandel(x, y, max_iters):
    zr = 0.0
    zi = 0.0
    for i in range(max_iters):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 >= 4.0:
            return i
        zi = 2.0 * zr * zi + y
        zr = zr2 - zi2 + x
    return max_iters


@cuda.jit("void(float64, float64, float64, float64, uint8[:, :], int32)")
def mandel_kernel(min_x, max_x, min_y, max_y, image, iters):
    height = image.shape[0]
    width = image.shape[1]
    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height

    start_x, start_y = cuda.grid(2)
    grid_x, grid_y = cuda.gridsize(2)

    for x in range(start_x, width, grid_x):
        real = min_x + x * pixel_size_x
        for y in range(start_y, height, grid_y):
            imag = min_y + y * pixel_size_y
            image[y, x] = mandel(real, imag, iters)


if __name__ == "__main__":
    image = np.zeros((500, 750), dtype=np.uint8)
    mandel_kernel[(32, 16), (32, 8)](-2.0, 1.0, -1.0, 1.0, image, 20)
