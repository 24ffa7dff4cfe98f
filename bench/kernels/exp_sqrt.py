"""A math-heavy elementwise kernel: libdevice exp and sqrt (benchmark)."""
import math
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def exp_sqrt(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.exp(-x[i]) * math.sqrt(x[i] * x[i] + 1.0)
