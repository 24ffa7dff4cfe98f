"""--debug: an off-by-one read past the end fails the launch with Numba's
IndexError text, the source line and the failing block and thread"""
from numba import cuda

# ARGS: run %s:k --target cpu --debug --grid 1 --block 11 zeros:f32:10 11


@cuda.jit
def k(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i] = a[i] + 1
