"""Mandelbrot escape counts on a 48x32 image, with a device function."""
from numba import cuda

# RUN: mandel --grid 6,4 --block 8,8 image=zeros:uint8:32x48 min_x=-2.0 max_x=1.0 min_y=-1.0 max_y=1.0 iters=40
# EXPECT: image: uint8[32x48] [0, 0, 0, ..., 1] sum=112523 crc=67cd91d1
#   (computed in Python from: [mandel_py(-2.0 + (k % 48) * (3.0 / 48), -1.0 + (k // 48) * (2.0 / 32), 40) for k in range(32 * 48)])


@cuda.jit(device=True)
def escape(real, imag, max_iters):
    zr = 0.0
    zi = 0.0
    for i in range(max_iters):
        t = zr * zr - zi * zi + real
        zi = 2.0 * zr * zi + imag
        zr = t
        if zr * zr + zi * zi >= 4.0:
            return i
    return 255


@cuda.jit
def mandel(image, min_x, max_x, min_y, max_y, iters):
    height = image.shape[0]
    width = image.shape[1]
    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    x, y = cuda.grid(2)
    if x < width and y < height:
        real = min_x + x * pixel_size_x
        imag = min_y + y * pixel_size_y
        image[y, x] = escape(real, imag, iters)
