"""Mandelbrot escape counts with complex128 arithmetic (z = z*z + c): a
complex scalar argument (the image's corner), complex() built from ints
times a float, and a device function taking a complex parameter."""
from numba import cuda

# RUN: mandel --grid 6,4 --block 8,8 image=zeros:uint8:32x48 origin=c128:-2-1j step=0.0625 iters=40
# EXPECT: image: uint8[32x48] [0, 0, 0, ..., 1] sum=112523 crc=67cd91d1
#   (computed in Python from: [mandel_c(complex(-2.0, -1.0) + complex((k % 48) * 0.0625, (k // 48) * 0.0625), 40) for k in range(32 * 48)])


@cuda.jit(device=True)
def escape(c, max_iters):
    z = 0j
    for i in range(max_iters):
        z = z * z + c
        if z.real * z.real + z.imag * z.imag >= 4.0:
            return i
    return 255


@cuda.jit
def mandel(image, origin, step, iters):
    x, y = cuda.grid(2)
    if y < image.shape[0] and x < image.shape[1]:
        c = origin + complex(x * step, y * step)
        image[y, x] = escape(c, iters)
