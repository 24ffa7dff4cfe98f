"""Decorator options: fastmath, lineinfo, max_registers, opt, debug/cache off."""
import math
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:], float32[:])", fastmath=True)
def fast_rsqrt(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = 1.0 / math.sqrt(x[i]) + x[i] / 3.0


@cuda.jit("void(float32[:])", lineinfo=True)
def with_lineinfo(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 2


@cuda.jit("void(float64[:, :])", max_registers=32)
def few_registers(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = math.sin(a[i, j]) + math.cos(a[i, j])


@cuda.jit("void(int32[:])", opt=False, debug=False, cache=False)
def unoptimized(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@cuda.jit(["void(float32[:])", "void(float64[:])", "void(int32[::1])"])
def many_signatures(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] + 1


if __name__ == "__main__":
    pass


INLINE = "always"          # options held in module variables (numba-cuda's test_inline)
NO_INLINE = False


@cuda.jit(inline=INLINE)
def set_zero(a):
    a[0] = 0


@cuda.jit(inline=NO_INLINE)
def set_one(a):
    a[1] = 1


@cuda.jit("void(int32[::1])")
def call_inline_options(a):
    set_zero(a)
    set_one(a)
