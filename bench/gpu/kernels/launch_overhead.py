"""Tiny kernels for launch-overhead measurements (one block of 32 threads):
one and four array arguments; the work is a single store by thread 0."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def tiny1(a):
    if cuda.grid(1) == 0:
        a[0] = 1


@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1])")
def tiny4(a, b, c, d):
    if cuda.grid(1) == 0:
        d[0] = a[0] + b[0] + c[0]
