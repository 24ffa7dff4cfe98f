# A kernel calling a device function of a module in a folder beside it.
from numba import cuda

from kmods import dev
from kmods.dev import SCALE


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy_mod(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = dev.axpy(a, x[i], y[i]) + SCALE
